import { HttpError } from "@server/errors";
import type { Bucket } from "@server/content/buckets";
import type { DocumentSelection } from "@server/content/document-selection";
import { isPublicationState } from "@core/content/publication";
import { isUuid } from "@core/ids";

/**
 * The documents a download asks for in its query (the overview's `q`, `state` and `missing`, or ticked `id`s, repeated),
 * as the export and the translations' export read it; anything malformed is a 400.
 */
export function selectionFromQuery(params: URLSearchParams, bucket: Pick<Bucket, "locales">): DocumentSelection {
  const ids = params.getAll("id");
  if (ids.some((id) => !isUuid(id))) throw new HttpError(400, "errors.badRequest");
  const state = params.get("state");
  if (state !== null && !isPublicationState(state)) throw new HttpError(400, "errors.badRequest");
  const missing = params.get("missing");
  if (missing !== null && !bucket.locales.includes(missing)) throw new HttpError(400, "errors.badRequest");
  return { missing, search: params.get("q") ?? undefined, state, ids: ids.length ? ids : undefined };
}
