import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { MediaKind } from "@core/media/bounds";
import type { LibraryItem } from "@core/media/library";
import type { Locale } from "@core/locales";
import { requestJson } from "~/lib/api-client";
import { useInterfaceLanguage } from "~/lib/i18n";
import { MediaModal } from "./media-modal";

/*
 * "Choose from library" in place, for a field of a form that cannot leave its page (a sub-form's dialog): the
 * library's items of the field's kind (GET /api/v1/media/library), each with Choose or with why it does not fit the
 * field, searchable, a page at a time. Its words are the library's (the catalogue's `pages` part, fetched on opening).
 */

type PickableItem = LibraryItem & { refusals: string[] };

export interface LibraryDialogProps {
  kind: MediaKind;
  /** The form's bucket (whose schema holds the field) and the field's schema property and label. */
  form: string;
  property: Record<string, unknown>;
  label: string;
  onChosen: (contentId: string) => void;
  onClose: () => void;
}

export function LibraryDialog(props: LibraryDialogProps) {
  const { t, i18n } = useTranslation();
  useInterfaceLanguage(i18n, i18n.language as Locale, ["common", "media", "pages"]);
  const searchId = useId();
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<{ items: PickableItem[]; hasMore: boolean } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { kind, form, property } = props;

  useEffect(() => {
    const controller = new AbortController();
    const params = new URLSearchParams({ kind, form, properties: JSON.stringify(property), q, page: String(page) });
    // Typing waits a moment, so that each key is not a request.
    const load = () => {
      requestJson<{ items: PickableItem[]; hasMore: boolean }>(`/api/v1/media/library?${params}`, { signal: controller.signal }).then(
        (found) => {
          setAnswer(found);
          setFailure(null);
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setFailure(error instanceof Error ? error.message : String(error));
        },
      );
    };
    const timer = setTimeout(load, q ? 250 : 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [kind, form, property, q, page]);

  return (
    <MediaModal title={t("library.pick.title", { field: props.label })} className="library-dialog" onClose={props.onClose}>
      <label htmlFor={searchId}>{t("library.search")}</label>
      <input
        id={searchId}
        type="search"
        value={q}
        placeholder={t("library.searchPlaceholder")}
        onChange={(event) => {
          setQ(event.target.value);
          setPage(1);
        }}
      />
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
      {answer === null ? (
        <p role="status">{t("loading")}…</p>
      ) : answer.items.length ? (
        <ul className="library-dialog-items">
          {answer.items.map((item) => (
            <li key={item.contentId} data-media-item={item.contentId} data-fits={item.refusals.length === 0}>
              {item.previewUrl ? <img src={item.previewUrl} alt="" loading="lazy" /> : <span className="library-dialog-file" />}
              <div>
                <strong>{item.name}</strong>
                <span className="muted">
                  {[item.width && item.height ? `${item.width} × ${item.height}` : null, item.bucket.name].filter(Boolean).join(" · ")}
                </span>
                {item.refusals.length ? (
                  <>
                    <span className="muted">{t("library.pick.notFitting")}</span>
                    <ul className="field-error">
                      {item.refusals.map((refusal) => (
                        <li key={refusal}>{refusal}</li>
                      ))}
                    </ul>
                  </>
                ) : (
                  <button
                    type="button"
                    className="button small primary"
                    aria-label={t("library.pick.chooseItem", { name: item.name })}
                    onClick={() => props.onChosen(item.contentId)}
                  >
                    {t("library.pick.choose")}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t(q ? "library.noResults" : "library.pick.empty")}</p>
      )}
      {answer && (page > 1 || answer.hasMore) ? (
        <p className="library-dialog-pages">
          <button type="button" className="button small" disabled={page === 1} onClick={() => setPage(page - 1)}>
            {t("library.previous")}
          </button>
          <button type="button" className="button small" disabled={!answer.hasMore} onClick={() => setPage(page + 1)}>
            {t("library.next")}
          </button>
        </p>
      ) : null}
    </MediaModal>
  );
}
