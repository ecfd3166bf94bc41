import { useField } from "@conform-to/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDuration } from "@core/content/cases";
import { availabilityStatus } from "../availability";
import { AVAILABLE_FROM, AVAILABLE_UNTIL } from "../availability-dates";
import { casesField } from "@core/content/renderers";
import type { JsonSchema } from "@core/schema/normalize";
import type { BucketEditData } from "~/routes/bucket-edit/edit.server";
import type { EditScreenParts } from "~/routes/bucket-edit/page";
import { useBucketForm } from "~/components/form/context";
import { EntryState, SessionPlayer } from "./session-player";
import { totalDuration, useSessionEntries, type SessionEntry } from "./session-entries";

/*
 * The session editor (docs/screens.md): the generic edit page with the session's cases as its main
 * area and, beside the other fields, an aside with the session's length and its preview; a learning-environment
 * session's aside starts with its availability.
 */

/** What the dle-sessies editor's loader adds: the server's date, against which the availability is told. */
export interface LearningSessionData {
  today: string;
}

const propertiesOf = (data: BucketEditData) => (data.schema.properties ?? {}) as Record<string, JsonSchema>;

/** The aside of a session: its number of cases and total length, and the preview that plays them in order. */
function SessionSummary({ loaderData }: { loaderData: BucketEditData }) {
  const name = casesField(loaderData.schema);
  const property = name ? propertiesOf(loaderData)[name] : undefined;
  return name && property ? <SessionPreview name={name} schema={property} /> : null;
}

function SessionPreview({ name, schema }: { name: string; schema: JsonSchema }) {
  const { t } = useTranslation();
  const { hydrated } = useBucketForm();
  const entries = useSessionEntries(name, schema);
  const [playing, setPlaying] = useState<number | null>(null);
  const playable = entries.filter((entry) => entry.video?.ready);
  const total = totalDuration(entries);
  return (
    <section className="session-preview" aria-labelledby="session-preview-heading">
      <h2 id="session-preview-heading">{t("sessionEditor.summary.heading")}</h2>
      <p className="session-summary">
        <span>{t("sessionEditor.summary.cases", { count: entries.length })}</span>
        {total > 0 ? <span>{t("sessionEditor.summary.total", { duration: formatDuration(total) })}</span> : null}
      </p>
      <h3>{t("sessionEditor.preview.heading")}</h3>
      {entries.length === 0 ? (
        <p className="empty">{t("sessionEditor.preview.empty")}</p>
      ) : hydrated ? (
        <>
          <button
            type="button"
            className="button primary session-play"
            disabled={!playable.length}
            aria-haspopup="dialog"
            onClick={() => setPlaying(0)}
          >
            ▶ {t("sessionEditor.preview.play")}
          </button>
          <ol className="session-queue">
            {entries.map((entry, position) => {
              const at = playable.indexOf(entry);
              return (
                <li key={`${entry.id}-${position}`}>
                  {at === -1 ? (
                    <span className="session-queue-title">{entry.title}</span>
                  ) : (
                    <button
                      type="button"
                      className="session-queue-play"
                      aria-haspopup="dialog"
                      aria-label={t("sessionEditor.preview.playFrom", { title: entry.title })}
                      onClick={() => setPlaying(at)}
                    >
                      {entry.title}
                    </button>
                  )}
                  <EntryState entry={entry} />
                </li>
              );
            })}
          </ol>
        </>
      ) : (
        <NoScriptPreview entries={entries} />
      )}
      {playing !== null ? <SessionPlayer entries={entries} start={playing} onClose={() => setPlaying(null)} /> : null}
    </section>
  );
}

/** Without JavaScript: the cases in order, each ready video a native player behind a disclosure. */
function NoScriptPreview({ entries }: { entries: readonly SessionEntry[] }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="field-hint">{t("sessionEditor.preview.noScript")}</p>
      <ol className="session-queue">
        {entries.map((entry, position) => (
          <li key={`${entry.id}-${position}`}>
            {entry.video?.ready ? (
              <details className="session-watch">
                <summary>
                  <span className="session-queue-title">{entry.title}</span> <EntryState entry={entry} />
                </summary>
                {/* eslint-disable-next-line jsx-a11y/media-has-caption -- plays a user's uploaded video, which comes with no captions to offer */}
                <video src={entry.video.url} poster={entry.still ?? undefined} controls preload="none" />
              </details>
            ) : (
              <>
                <span className="session-queue-title">{entry.title}</span> <EntryState entry={entry} />
              </>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}

/** A date of the form (YYYY-MM-DD) in the interface's language. */
function useDateText() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeZone: "UTC" });
  return (date: string) => format.format(new Date(`${date}T00:00:00Z`));
}

/** A learning session's availability, from the form's live dates: the status line of the aside. */
function Availability({ today }: { today: string }) {
  const { t } = useTranslation();
  const dateText = useDateText();
  const [from] = useField<string>(AVAILABLE_FROM);
  const [until] = useField<string>(AVAILABLE_UNTIL);
  const status = availabilityStatus(from.value, until.value, today);
  let line: string;
  let detail: string | null = null;
  switch (status.state) {
    case "always":
      line = t("sessionEditor.availability.always");
      break;
    case "invalid":
      line = t("sessionEditor.availability.invalid");
      break;
    case "notYet":
      line = t("sessionEditor.availability.notYet");
      detail = status.until
        ? t("sessionEditor.availability.notYetBoth", { from: dateText(status.from), until: dateText(status.until) })
        : t("sessionEditor.availability.notYetFrom", { from: dateText(status.from) });
      break;
    case "ended":
      line = t("sessionEditor.availability.ended");
      detail = t("sessionEditor.availability.endedOn", { until: dateText(status.until) });
      break;
    case "open":
      line = t("sessionEditor.availability.now");
      detail =
        status.from && status.until
          ? t("sessionEditor.availability.openBoth", { from: dateText(status.from), until: dateText(status.until) })
          : status.from
            ? t("sessionEditor.availability.openFrom", { from: dateText(status.from) })
            : t("sessionEditor.availability.openUntil", { until: dateText(status.until ?? "") });
      break;
  }
  return (
    <section className={`session-availability availability-${status.state}`} aria-labelledby="session-availability-heading">
      <h2 id="session-availability-heading">{t("sessionEditor.availability.heading")}</h2>
      <p className="availability-line" role="status">
        <strong>{line}</strong>
        {detail ? <span>{detail}</span> : null}
      </p>
    </section>
  );
}

function LearningSessionAside({ loaderData }: { loaderData: BucketEditData & { screenData: LearningSessionData } }) {
  const properties = propertiesOf(loaderData);
  return (
    <>
      {AVAILABLE_FROM in properties || AVAILABLE_UNTIL in properties ? <Availability today={loaderData.screenData.today} /> : null}
      <SessionSummary loaderData={loaderData} />
    </>
  );
}

const mainFields = (data: BucketEditData) => {
  const name = casesField(data.schema);
  return name ? [name] : [];
};

/** The sessies editor. */
export const SESSION_EDITOR: EditScreenParts = { className: "session-editor", mainFields, Aside: SessionSummary };

/** The dle-sessies editor: the same, its availability first in the aside. */
export const LEARNING_SESSION_EDITOR: EditScreenParts<BucketEditData & { screenData: LearningSessionData }> = {
  className: "session-editor learning-session-editor",
  mainFields,
  Aside: LearningSessionAside,
};
