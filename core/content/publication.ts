/*
 * A document's publication state (docs/publishing.md), shared by the server's lists and the browser's badges:
 *   draft        never published: exhibits do not see it
 *   published    exhibits see its newest version
 *   changed      exhibits see an older version; the newest is not published yet
 *   scheduled    in a release scheduled to go live: exhibits see it change when the release does
 *   unpublished  taken off: exhibits no longer see it
 */
export const PUBLICATION_STATES = ["draft", "published", "changed", "scheduled", "unpublished"] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];

export interface PublicationFacts {
  latestVersionId: string;
  publishedVersionId: string | null;
  /** When it was last taken off (null: never, or published again since). */
  unpublishedAt: string | Date | null;
  /** In a release that is scheduled (what exhibits get of it changes at the release's time). */
  scheduled?: boolean;
}

export function publicationState(facts: PublicationFacts): PublicationState {
  if (facts.scheduled) return "scheduled";
  if (facts.publishedVersionId === null) return facts.unpublishedAt === null ? "draft" : "unpublished";
  return facts.publishedVersionId === facts.latestVersionId ? "published" : "changed";
}

export const isPublicationState = (value: unknown): value is PublicationState =>
  typeof value === "string" && (PUBLICATION_STATES as readonly string[]).includes(value);

/** Who may publish: a user with the `publish` permission, and every admin. */
export const mayPublish = (permissions: readonly string[]): boolean => permissions.includes("publish") || permissions.includes("admin");

/** Longest message an editor may add to a request for review (migration 037's CHECK says the same). */
export const REVIEW_NOTE_MAX = 1000;
