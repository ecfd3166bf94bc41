import type { Services } from "@server/services";
import { mediaContent } from "./access";
import { receiveMultipart, type IncomingBody, type ReceivedFile } from "./upload";
import { HttpError } from "@server/errors";
import type { MediaStorage } from "./storage";
import { findBucketById, isBucketVisible } from "@server/content/buckets";
import { latestMedia } from "./store";
import type { User } from "@server/accounts/users";
import { mediaKindOfSchema } from "@core/form/field-kind";
import { schemaAtName, schemaNodes } from "@core/schema/walk";
import { isUuid } from "@core/ids";
import type { JsonSchema } from "@core/schema/normalize";
import { MAX_VIDEO_BYTES, mediaBounds, type MediaKind } from "@core/media/bounds";
import { MEDIA_FILE_PREFIX, type MediaContent } from "@core/media/wire";

/*
 * The bucket edit form without JavaScript: when the schema has a media field the form is
 * multipart/form-data (read by server/web/form-post.ts) and its <input type=file> parts stream to temporary files
 * here, exactly like
 * POST /api/v1/media/{kind}/upload: counted while they arrive, cut off over the field's limit. Reading
 * writes nothing else: the files are checked with the rest of the form and committed only by a save
 * (server/content/save-form.ts). Nothing is held whole in memory; the text fields are limited like any other
 * form post (1 MiB in all).
 */

const MAX_TEXT_BYTES = 1024 * 1024;
const MAX_FILES = 20;

/** A file part of the form: its media field and the field's schema property. */
export interface FormFilePart {
  name: string;
  kind: MediaKind;
  property: JsonSchema;
}

export interface FormPost {
  formData: FormData;
  /** Files in temporary files only; a file over its field's limit has `tooLarge` and no file left. */
  files: Array<ReceivedFile<FormFilePart>>;
}

/** Whether a schema has a media field anywhere (then its form is multipart). */
export function hasMediaField(schema: unknown): boolean {
  return [...schemaNodes(schema)].some(({ node }) => mediaKindOfSchema(node) !== null);
}

/**
 * Streams a multipart form body through the uploads' receiver: text fields limited like any form post, each
 * file part in a media field's input streamed to a temporary file. A file over its field's limit is read
 * into nothing and reported under the field (so the rest of the form survives), up to the largest upload
 * we take at all. A file part whose name is not a media field of the schema is refused (400), a malformed
 * or too large body too.
 */
export async function receiveFormPost(body: IncomingBody, storage: MediaStorage, schema: JsonSchema): Promise<FormPost> {
  const received = await receiveMultipart<FormFilePart>(body, storage, {
    limits: {
      fieldNameSize: 1024,
      fieldSize: MAX_TEXT_BYTES,
      fieldBytes: MAX_TEXT_BYTES,
      fields: 10_000,
      files: MAX_FILES,
      parts: 10_000 + MAX_FILES,
    },
    oversize: { mode: "skip", skipUpTo: MAX_VIDEO_BYTES },
    planFile(partName, filename) {
      const name = partName.startsWith(MEDIA_FILE_PREFIX) ? partName.slice(MEDIA_FILE_PREFIX.length) : "";
      const property = name ? schemaAtName(schema, name) : null;
      const kind = property ? mediaKindOfSchema(property) : null;
      if (!property || !kind) throw new HttpError(400, "mediaChecks.file.notMediaField", { name: partName.slice(0, 100) });
      if (!filename) return null; // no file chosen: browsers send an empty part
      return { maxBytes: mediaBounds(kind, property).maxBytes, tag: { name, kind, property } };
    },
  });
  const formData = new FormData();
  for (const [name, value] of received.fields) formData.append(name, value);
  return { formData, files: received.files };
}

/** A media field's value in a document: where (a form name), which content, the field's schema and its label. */
export interface MediaReference {
  name: string;
  contentId: string;
  property: JsonSchema;
  label: string;
}

/** The media contentIds of a document (or of a form's payload) with the form field names that hold them. */
export function mediaReferences(schema: unknown, value: unknown, name = "", out: MediaReference[] = []) {
  if (typeof schema !== "object" || schema === null) return out;
  const node = schema as JsonSchema;
  if (mediaKindOfSchema(node)) {
    if (typeof value === "string" && isUuid(value))
      out.push({ name, contentId: value, property: node, label: typeof node.title === "string" && node.title ? node.title : name });
    return out;
  }
  if (Array.isArray(value)) for (const [index, item] of value.entries()) mediaReferences(node.items, item, `${name}[${index}]`, out);
  else if (typeof value === "object" && value !== null && typeof node.properties === "object" && node.properties !== null) {
    for (const [key, child] of Object.entries(node.properties)) {
      if (Object.prototype.hasOwnProperty.call(value, key))
        mediaReferences(child, (value as Record<string, unknown>)[key], name ? `${name}.${key}` : key, out);
    }
  }
  return out;
}

/** The media contents a document shows (for the page without JavaScript and the first render), access checked. */
export async function loadMediaContents(
  context: Services,
  user: User,
  schema: unknown,
  value: unknown,
): Promise<Record<string, MediaContent>> {
  const out: Record<string, MediaContent> = {};
  const buckets = new Map<string, boolean>();
  for (const contentId of new Set(mediaReferences(schema, value).map((reference) => reference.contentId))) {
    const media = await latestMedia(context.db, contentId);
    if (!media) continue;
    if (!buckets.has(media.bucketId)) {
      const bucket = await findBucketById(context.db, media.bucketId);
      buckets.set(media.bucketId, !!bucket && isBucketVisible(bucket, user));
    }
    if (buckets.get(media.bucketId)) out[contentId] = await mediaContent(context, media);
  }
  return out;
}
