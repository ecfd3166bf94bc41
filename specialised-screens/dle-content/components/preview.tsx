import { useTranslation } from "react-i18next";
import { mainTextValue, paragraphsOf, type MainText } from "../dle-content";
import { useBucketForm } from "~/components/form/context";
import { LocaleTabs } from "~/components/form/locale-tabs";

/**
 * The learning environment's main texts as an exhibit shows them (a heading, paragraphs, lists), per locale. With
 * JavaScript one locale at a time, following the form's active locale (its tabs switch the form's too); without,
 * every locale one under the other. `value` is the form's value: stored, posted, or as typed.
 */
export function ContentPreview({ texts, value }: { texts: readonly MainText[]; value: unknown }) {
  const { t } = useTranslation();
  const settings = useBucketForm();
  const { locales, activeLocale, hydrated } = settings;
  return (
    <section className="dle-preview" aria-labelledby="dle-preview-heading">
      <h2 id="dle-preview-heading">{t("dleContent.preview.heading")}</h2>
      <p className="dle-note">{t("dleContent.preview.note")}</p>
      {texts.length === 0 ? <p className="empty">{t("dleContent.preview.noTexts")}</p> : null}
      {texts.length && hydrated && locales.length > 1 ? <LocaleTabs label={t("dleContent.preview.locales")} /> : null}
      {texts.length
        ? locales.map((locale) => (
            <article
              key={locale}
              className="dle-preview-locale"
              lang={locale}
              data-locale={locale}
              hidden={hydrated && locales.length > 1 && locale !== activeLocale}
            >
              {!hydrated || locales.length === 1 ? <p className="dle-preview-locale-name">{locale.toUpperCase()}</p> : null}
              {texts.map((text) => (
                <PreviewText key={text.name} text={text} value={mainTextValue(text, value, locale)} />
              ))}
            </article>
          ))
        : null}
    </section>
  );
}

function PreviewText({ text, value }: { text: MainText; value: string | string[] }) {
  const { t } = useTranslation();
  const empty = <span className="dle-preview-empty">{t("dleContent.preview.empty")}</span>;
  if (text.role === "heading") return <h3 data-text={text.name}>{typeof value === "string" && value.trim() ? value : empty}</h3>;
  if (text.role === "list") {
    const entries = Array.isArray(value) ? value : [];
    return entries.length ? (
      <ul data-text={text.name}>
        {entries.map((entry, index) => (
          <li key={index}>{entry}</li>
        ))}
      </ul>
    ) : null;
  }
  const paragraphs = typeof value === "string" ? paragraphsOf(value) : [];
  return (
    <div data-text={text.name} className="dle-preview-paragraphs">
      {paragraphs.length ? paragraphs.map((paragraph, index) => <p key={index}>{paragraph}</p>) : <p>{empty}</p>}
    </div>
  );
}
