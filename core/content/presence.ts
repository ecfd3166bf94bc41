/*
 * Who else has a document open (issue 32): what the edit page shows, from its loader (as of page load) and then
 * from its event stream (server/presence/, app/components/presence/). Shared by server and browser.
 */

/** Another editor with the document open: one entry per person, however many pages they have open. */
export interface PresentEditor {
  userId: string;
  name: string;
  /** When their first page of it still open was shown (ISO 8601). */
  since: string;
  /** Whether one of their pages has changes in its form that are not saved. */
  unsaved: boolean;
}

/** The events of a document's stream (text/event-stream), each with JSON data. */
export const PRESENCE_EVENTS = {
  /** Who else is here now: PresentEditor[]. */
  editors: "editors",
  /** Someone saved a version: { versionId, author }; a save of this page's own is not told. */
  saved: "saved",
  /** The document was deleted: {}. */
  deleted: "deleted",
} as const;

export interface SavedEvent {
  versionId: string;
  /** The saving user's name; null when it was not a user (an API client, the command line). */
  author: string | null;
  authorId: string | null;
}

/**
 * The path of a document's presence: GET is its event stream, PUT says whether the page has unsaved changes (not
 * a POST: nothing that waits for the form's post should take it for one).
 */
export const presencePath = (bucketSlug: string, contentId: string) =>
  `/b/${encodeURIComponent(bucketSlug)}/${encodeURIComponent(contentId)}/presence`;

/** The form fields of a PUT to presencePath (and the page field of its GET). */
export const PRESENCE_PAGE_FIELD = "page";
/**
 * The GET's document version as of the page's load: a save between the load and the stream's opening is told as
 * soon as the stream opens.
 */
export const PRESENCE_SINCE_FIELD = "since";
export const PRESENCE_UNSAVED_FIELD = "unsaved";

/** One entry per person: the earliest `since`, unsaved when any of their pages is. Sorted by since, then name. */
export function perPerson(rows: ReadonlyArray<PresentEditor>): PresentEditor[] {
  const people = new Map<string, PresentEditor>();
  for (const row of rows) {
    const known = people.get(row.userId);
    if (!known) people.set(row.userId, { ...row });
    else {
      if (row.since < known.since) known.since = row.since;
      known.unsaved ||= row.unsaved;
    }
  }
  return [...people.values()].sort((a, b) => a.since.localeCompare(b.since) || a.name.localeCompare(b.name));
}
