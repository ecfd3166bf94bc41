import type { MouseEvent } from "react";
import { flushSync } from "react-dom";
import { useTranslation } from "react-i18next";
import type { LocaleStatus } from "../dle-content";
import { useBucketForm } from "~/components/form/context";

/**
 * Per locale of the bucket: how many translatable fields are filled, and links to the missing ones. A link is a
 * plain anchor to the field's input (without JavaScript every locale's input is on the page); with JavaScript it
 * first makes the field's locale the form's active one, so the input is shown, then focuses it.
 * `fieldId` gives a form name's input id; `translationsHref`, the bucket's translations page (XLIFF) for this document.
 */
export function TranslationStrip({
  status,
  fieldId,
  translationsHref,
}: {
  status: readonly LocaleStatus[];
  fieldId: (name: string) => string;
  translationsHref?: string | null;
}) {
  const { t } = useTranslation();
  const settings = useBucketForm();
  const jump = (locale: string, id: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (!settings.hydrated) return;
    event.preventDefault();
    flushSync(() => settings.setActiveLocale(locale));
    const input = document.getElementById(id);
    input?.scrollIntoView({ block: "center" });
    input?.focus({ preventScroll: true });
  };
  if (!status.length) return null;
  const strip = (
    <nav className="translation-strip" aria-label={t("dleContent.status.label")}>
      <h2>{t("dleContent.status.heading")}</h2>
      {status.every((locale) => locale.total === 0) ? (
        <p className="empty">{t("dleContent.status.none")}</p>
      ) : (
        <ul>
          {status.map((locale) => (
            <li key={locale.locale} data-locale={locale.locale} className={locale.missing.length ? "incomplete" : "complete"}>
              <strong lang={locale.locale}>{locale.locale.toUpperCase()}</strong>{" "}
              <span className="translation-count">{t("dleContent.status.filled", { filled: locale.filled, total: locale.total })}</span>
              {locale.missing.length ? (
                <span className="translation-missing">
                  {" "}
                  {t("dleContent.status.missing")}{" "}
                  {locale.missing.map((field, index) => (
                    <span key={field.name}>
                      {index ? ", " : null}
                      <a href={`#${fieldId(field.name)}`} onClick={jump(locale.locale, fieldId(field.name))} data-field-name={field.name}>
                        {field.label}
                      </a>
                    </span>
                  ))}
                </span>
              ) : (
                <span className="translation-complete"> ✓ {t("dleContent.status.complete")}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
  return translationsHref ? (
    <>
      {strip}
      <p className="translation-file">
        <a href={translationsHref}>{t("translations.link")}</a>
      </p>
    </>
  ) : (
    strip
  );
}
