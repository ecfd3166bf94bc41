import type { MediaKind } from "./bounds";

/*
 * A file chosen in an edit form without JavaScript whose post did not save (invalid, or a list or upload
 * action) waits on the server as a pending upload: the field holds the media contentId it will get, and the
 * form carries its token in a hidden input, so the editor does not choose it again. The next save commits it.
 */

/** The hidden inputs with the tokens of the form's pending uploads. */
export const PENDING_UPLOAD_FIELD = "__pendingUpload";

/** A pending upload as the re-rendered form shows it. */
export interface PendingFile {
  /** `<contentId>.<secret>`: opaque to the browser. */
  token: string;
  contentId: string;
  kind: MediaKind | null;
  /** Null: the upload is no longer kept (swept); the form keeps its token so that its field reports it. */
  originalFilename: string | null;
}
