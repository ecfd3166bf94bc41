import { useTranslation } from "react-i18next";
import { Form, useLocation } from "react-router";

/**
 * The Dutch Internet Explorer notice (spec §2), shown until hidden once. Its words are in the `pages` part, which a
 * browser fetches only for some pages: only the server renders the notice, as the browsers it is for run no script.
 */
export function IEWarning({ version }: { version: 9 | 10 | 11 }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="ie-warning-title" lang="nl">
        <h2 id="ie-warning-title">{t("ieWarning.title")}</h2>
        <p>{version === 11 ? t("ieWarning.notOptimal") : t("ieWarning.unsupported")}</p>
        <Form method="post" action="/internet-explorer/hide">
          <input type="hidden" name="redirect_to" value={location.pathname + location.search} />
          <button type="submit" className="button primary">
            {t("ieWarning.hide")}
          </button>
        </Form>
      </div>
    </div>
  );
}
