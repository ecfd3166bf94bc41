/*
 * A release's state (docs/publishing.md, Releases), shared by the server and the browser's pages:
 *   open         being put together: documents can be added and removed, their versions changed
 *   scheduled    as open, and published by the server at its scheduled time
 *   published    its documents went live together; it can no longer be changed, only rolled back
 *   rolled_back  its documents went back to what was published before it
 */
export const RELEASE_STATES = ["open", "scheduled", "published", "rolled_back"] as const;
export type ReleaseState = (typeof RELEASE_STATES)[number];

export const RELEASE_NAME_MAX = 200;

export const isReleaseState = (value: unknown): value is ReleaseState =>
  typeof value === "string" && (RELEASE_STATES as readonly string[]).includes(value);

/** Documents can be added, removed and re-versioned, the name changed, the time set: until it is published. */
export const isReleaseEditable = (state: ReleaseState): boolean => state === "open" || state === "scheduled";

/** Publishing (now or at its time) is possible from the same states as editing. */
export const isReleasePublishable = isReleaseEditable;

/** Only a published release can be rolled back (once). */
export const isReleaseRollbackable = (state: ReleaseState): boolean => state === "published";
