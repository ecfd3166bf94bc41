import type { ShapeOptions, StoredDocument } from "@core/delivery/shape";
import { documentEtag, rememberReferences, standsAlone } from "@server/delivery/etag";
import { shapeDocuments, type DeliveryBucket, type ReadContext, type ShapeDependencies } from "@server/delivery/read";
import type { DocumentState } from "@server/delivery/store";
import { isPreview, viewKey } from "@server/delivery/view";
import { jsonAnswer, notModified, notModifiedAnswer } from "./route";

const hasData = (document: StoredDocument | DocumentState): document is StoredDocument => "data" in document;

/**
 * One document's answer with its ETag: 304 from the document's state alone when the tag is known from it and the
 * client has it; else the document (read now when only its state was), shaped, with the tag of its inputs.
 * `reload` reads the document's latest version (null when it is gone meanwhile).
 */
export async function documentAnswer(
  request: Request,
  read: ReadContext,
  version: string,
  bucket: DeliveryBucket,
  document: StoredDocument | DocumentState,
  options: ShapeOptions,
  reload: () => Promise<StoredDocument | null>,
): Promise<Response | null> {
  const preview = read.view && isPreview(read.view) ? viewKey(read.view) : undefined;
  // A preview is always built (it is read with its data): no answer from the state alone.
  if (preview === undefined && standsAlone(bucket, document.versionId, options)) {
    const etag = documentEtag(read, version, bucket, document, options, []);
    if (notModified(request, etag)) return notModifiedAnswer(etag);
  }
  const full = hasData(document) ? document : await reload();
  if (!full) return null;
  const dependencies: ShapeDependencies = { lines: [] };
  const [shaped] = await shapeDocuments(read, bucket, [full], options, dependencies);
  rememberReferences(bucket, full);
  return jsonAnswer(request, shaped, {}, documentEtag(read, version, bucket, full, options, dependencies.lines), preview);
}
