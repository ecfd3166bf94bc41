import { useTranslation } from "react-i18next";

/** A select's options: the empty choice ('Pick an option') first, then each option by its label. */
export function SelectOptions({ options }: { options: ReadonlyArray<{ value: string; label: string }> }) {
  const { t } = useTranslation();
  return (
    <>
      <option value="">{t("form.pickAnOption")}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </>
  );
}
