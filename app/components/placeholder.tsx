import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** A screen that a later release brings: says so, and offers a way on. */
export function Placeholder({ title }: { title?: string }) {
  const { t } = useTranslation();
  return (
    <section className="notice" data-placeholder>
      {title ? <p className="eyebrow">{title}</p> : null}
      <h1>{t("placeholder.title")}</h1>
      <p>{t("placeholder.body")}</p>
      <Link to="/" className="button">{t("placeholder.home")}</Link>
    </section>
  );
}
