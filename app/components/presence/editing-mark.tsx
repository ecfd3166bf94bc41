import { useTranslation } from "react-i18next";

/** An overview row's mark that others have the document open now (as of the page's load): their names. */
export function EditingMark({ names }: { names: readonly string[] }) {
  const { t, i18n } = useTranslation();
  if (names.length === 0) return null;
  const list = new Intl.ListFormat(i18n.language, { type: "conjunction" }).format(names);
  return (
    <span className="editing-mark" title={t("overview.editingHint")}>
      {t("overview.editing", { names: list, count: names.length })}
    </span>
  );
}
