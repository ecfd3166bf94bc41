import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
// The `history` catalogue part comes with this code (core/catalogue-parts.ts): its `presence` messages are here.
import "~/components/history/history-messages";
import { formSnapshot } from "~/components/form/unsaved-changes";
import { dateTimeFormat } from "@core/date-formats";
import {
  PRESENCE_EVENTS,
  PRESENCE_PAGE_FIELD,
  PRESENCE_SINCE_FIELD,
  PRESENCE_UNSAVED_FIELD,
  presencePath,
  type PresentEditor,
  type SavedEvent,
} from "@core/content/presence";

/*
 * Who else has this document open (issue 32, docs/architecture.md "Presence"), above a stored document's form. The
 * first render shows them as of page load (and stays so without JavaScript); with JavaScript the page opens the
 * document's event stream (EventSource, one per page) and shows each change, a save by someone else (the next save
 * of this form merges with it) and a deletion (the form keeps its input; its save makes a new document). It also
 * tells the others whether this form has unsaved changes, by the same comparison the unsaved-changes guard makes.
 */

const SINCE_TIME: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit", timeZone: "UTC", timeZoneName: "short" };

/** How long after the last keystroke the form is compared again (a change of its unsaved state is posted). */
const UNSAVED_CHECK_MS = 400;
const UNSAVED_SWEEP_MS = 3000;

export interface PresenceData {
  pageId: string;
  /** The document's newest version as the page was loaded. */
  latestVersionId: string;
  editors: PresentEditor[];
}

/** Keyed by the page id (each load is a page of its own): its state starts from that load's. */
export function PresencePanel({
  presence,
  bucketSlug,
  contentId,
  latestPath,
  formId,
  merging,
}: {
  presence: PresenceData;
  bucketSlug: string;
  contentId: string;
  /** The document's latest version's page (after someone else's save). */
  latestPath: string;
  formId: string;
  /** A post of the form has come back merged or in conflict: its notice says all a save by someone else would. */
  merging: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [editors, setEditors] = useState(presence.editors);
  const [saved, setSaved] = useState<SavedEvent | null>(null);
  const [deleted, setDeleted] = useState(false);
  const path = presencePath(bucketSlug, contentId);

  useEffect(() => {
    const query = new URLSearchParams({ [PRESENCE_PAGE_FIELD]: presence.pageId, [PRESENCE_SINCE_FIELD]: presence.latestVersionId });
    const source = new EventSource(`${path}?${query}`);
    source.addEventListener(PRESENCE_EVENTS.editors, (event) => setEditors(JSON.parse(event.data as string) as PresentEditor[]));
    source.addEventListener(PRESENCE_EVENTS.saved, (event) => setSaved(JSON.parse(event.data as string) as SavedEvent));
    source.addEventListener(PRESENCE_EVENTS.deleted, () => {
      setDeleted(true);
      source.close();
    });
    return () => source.close();
  }, [path, presence.pageId, presence.latestVersionId]);

  useUnsavedReport(formId, path, presence.pageId);

  const since = dateTimeFormat(i18n.language, SINCE_TIME);
  return (
    <div className="presence" aria-live="polite" data-presence-page={presence.pageId}>
      {editors.length > 0 && (
        <div className="presence-editors">
          <span className="presence-label">{t("presence.alsoHere")}</span>
          <ul>
            {editors.map((editor) => (
              <li key={editor.userId} data-presence-user={editor.name}>
                <span className="presence-initials" aria-hidden="true">
                  {initials(editor.name)}
                </span>
                <span>
                  <strong>{editor.name}</strong>{" "}
                  <span className="presence-since">
                    {t("presence.since", { time: since.format(new Date(editor.since)) })}
                    {editor.unsaved && ` · ${t("presence.unsaved")}`}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {deleted ? (
        <p className="form-error presence-deleted" role="alert">
          {t("presence.deleted")}
        </p>
      ) : (
        saved &&
        !merging && (
          <p className="notice-warning presence-saved">
            {saved.author ? t("presence.saved", { author: saved.author }) : t("presence.savedAnonymous")}{" "}
            <Link to={latestPath}>{t("presence.openLatest")}</Link>
          </p>
        )
      )}
    </div>
  );
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? "")
    .join("");

/** Sends (PUT) whether the form has unsaved changes whenever that changes (compared as the unsaved-changes guard does). */
function useUnsavedReport(formId: string, path: string, pageId: string) {
  const reported = useRef(false);
  useEffect(() => {
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;
    const baseline = formSnapshot(form);
    reported.current = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const unsaved = formSnapshot(form) !== baseline;
        if (unsaved === reported.current) return;
        reported.current = unsaved;
        const body = new URLSearchParams({ [PRESENCE_PAGE_FIELD]: pageId, [PRESENCE_UNSAVED_FIELD]: String(unsaved) });
        void fetch(path, { method: "PUT", body }).catch(() => undefined);
      }, UNSAVED_CHECK_MS);
    };
    form.addEventListener("input", check);
    form.addEventListener("change", check);
    // Some widgets set their hidden inputs without an event: looked at now and then as well.
    const sweep = setInterval(check, UNSAVED_SWEEP_MS);
    return () => {
      clearTimeout(timer);
      clearInterval(sweep);
      form.removeEventListener("input", check);
      form.removeEventListener("change", check);
    };
  }, [formId, path, pageId]);
}
