import type { AppLoadContext } from "react-router";
import { HttpError } from "../web/http-error";
import { getRequestState } from "../web/request-state";
import { errorText } from "../web/respond";
import { acceptUpload } from "./accept";
import { toMediaContent } from "./content";
import { receiveMultipart, tooLargeMessage, UploadError } from "./upload";
import type { MediaStorage } from "./storage";
import { findBucketById, isBucketVisible, type Bucket } from "../content/buckets";
import { jobsOf, latestMedia } from "./store";
import type { User } from "../accounts/users";
import { mediaKindOfSchema } from "../../core/form/field-kind";
import { schemaAtName } from "../../core/schema/walk";
import { isUuid } from "../../core/ids";
import type { JsonSchema } from "../../core/schema/normalize";
import { MAX_VIDEO_BYTES, mediaBounds, type MediaKind } from "../../core/media/bounds";
import { MEDIA_FILE_PREFIX, MEDIA_UPLOAD_FIELD, type MediaContent } from "../../core/media/wire";

/*
 * The bucket edit form without JavaScript (issue 4): when the schema has a media field the form is
 * multipart/form-data and its <input type=file> parts stream to temporary files here, exactly like
 * POST /api/v1/media/{kind}/upload: counted while they arrive, cut off over the field's limit, then checked
 * and stored by server/media/accept.ts acceptUpload. Nothing is held whole in memory; the text fields are
 * limited like any other form post (1 MiB in all).
 */

const MAX_TEXT_BYTES = 1024 * 1024;
const MAX_FILES = 20;
const CONFORM_INTENT = "__intent__";

export interface MediaFormPost {
  /** The text fields, with the media fields set to the uploaded media's contentId. */
  formData: FormData;
  /** Upload errors by form field name. */
  fieldErrors: Record<string, string[]>;
  /** The uploaded media, by contentId, for the re-rendered page. */
  contents: Record<string, MediaContent>;
}

export const isMultipart = (request: Request) => /^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "");

/** Whether a schema has a media field anywhere (then its form is multipart). */
export function hasMediaField(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const node = schema as JsonSchema;
  if (mediaKindOfSchema(node)) return true;
  const properties = typeof node.properties === "object" && node.properties !== null ? Object.values(node.properties) : [];
  return properties.some(hasMediaField) || hasMediaField(node.items);
}

interface MediaPart {
  name: string;
  kind: MediaKind;
  property: JsonSchema;
}

/**
 * Reads a bucket form post. A urlencoded body is read as usual (the 1 MiB
 * limit of server/http.ts already applied); a multipart one is streamed, its
 * files uploaded as media of the bucket. A file part whose name is not a
 * media field of the schema is refused (400).
 */
export async function readBucketFormPost(
  request: Request,
  context: AppLoadContext,
  target: { user: User; bucket: Bucket; schema: JsonSchema },
): Promise<MediaFormPost> {
  const post: MediaFormPost = { formData: new FormData(), fieldErrors: Object.create(null), contents: Object.create(null) };
  if (!isMultipart(request)) {
    post.formData = await request.formData();
    return post;
  }
  const { storage, jobs, ffmpeg } = context.media;
  const received = await receiveForm(request, storage, target.schema);
  for (const [name, value] of received.fields) post.formData.append(name, value);
  try {
    for (const { tag: part, file, tooLarge } of received.files) {
      if (tooLarge !== undefined) {
        (post.fieldErrors[part.name] ??= []).push(tooLargeMessage(tooLarge));
        continue;
      }
      try {
        const media = await acceptUpload(
          { kind: part.kind, file, property: part.property, bucketId: target.bucket.id, userId: target.user.id },
          { db: context.db, storage, ffmpeg },
        );
        if (part.kind === "video") jobs.kick();
        context.logger.info({ mediaId: media.id, kind: part.kind, size: media.size }, "media uploaded through the form");
        post.formData.set(part.name, media.contentId);
        post.contents[media.contentId] = toMediaContent(media, await jobsOf(context.db, media.id));
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        (post.fieldErrors[part.name] ??= []).push(errorText(error, (await getRequestState(request, context)).locale));
      }
    }
  } finally {
    // acceptUpload removes its temporary file either way; these are the ones it never saw.
    await Promise.all(received.files.map((item) => storage.remove(item.file.temporaryPath)));
  }
  // 'Upload' (without JavaScript) shows the result without saving: Conform's update intent does that.
  const upload = post.formData.get(MEDIA_UPLOAD_FIELD);
  post.formData.delete(MEDIA_UPLOAD_FIELD);
  if (typeof upload === "string" && !post.formData.has(CONFORM_INTENT) && schemaAtName(target.schema, upload) && mediaKindOfSchema(schemaAtName(target.schema, upload)!)) {
    const value = post.formData.get(upload);
    post.formData.set(CONFORM_INTENT, JSON.stringify({ type: "update", payload: { name: upload, value: typeof value === "string" ? value : "" } }));
  }
  return post;
}

/**
 * Streams the multipart body through the uploads' receiver: text fields limited like any form post, each
 * file part in a media field's input streamed to a temporary file. A file over its field's limit is read
 * into nothing and reported under the field (so the rest of the form survives), up to the largest upload
 * we take at all.
 */
async function receiveForm(request: Request, storage: MediaStorage, schema: JsonSchema) {
  try {
    return await receiveMultipart<MediaPart>(request, storage, {
      limits: { fieldNameSize: 1024, fieldSize: MAX_TEXT_BYTES, fieldBytes: MAX_TEXT_BYTES, fields: 10_000, files: MAX_FILES, parts: 10_000 + MAX_FILES },
      oversize: { mode: "skip", skipUpTo: MAX_VIDEO_BYTES },
      planFile(partName, filename) {
        const name = partName.startsWith(MEDIA_FILE_PREFIX) ? partName.slice(MEDIA_FILE_PREFIX.length) : "";
        const property = name ? schemaAtName(schema, name) : null;
        const kind = property ? mediaKindOfSchema(property) : null;
        if (!property || !kind) throw new UploadError(400, `The form has a file in '${partName.slice(0, 100)}', which is not a media field.`);
        if (!filename) return null; // no file chosen: browsers send an empty part
        return { maxBytes: mediaBounds(kind, property).maxBytes, tag: { name, kind, property } };
      },
    });
  } catch (error) {
    if (error instanceof UploadError) throw new Response(error.text, { status: error.status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    throw error;
  }
}

/** contentIds of the media fields in a document, walking the schema. */
export function mediaIdsOf(schema: unknown, value: unknown, out = new Set<string>()): Set<string> {
  if (typeof schema !== "object" || schema === null) return out;
  const node = schema as JsonSchema;
  if (mediaKindOfSchema(node)) {
    if (typeof value === "string" && isUuid(value)) out.add(value);
    return out;
  }
  if (Array.isArray(value)) for (const item of value) mediaIdsOf(node.items, item, out);
  else if (typeof value === "object" && value !== null && typeof node.properties === "object" && node.properties !== null) {
    for (const [name, child] of Object.entries(node.properties)) mediaIdsOf(child, (value as Record<string, unknown>)[name], out);
  }
  return out;
}

/** The media contents a document shows (for the page without JavaScript and the first render), access checked. */
export async function loadMediaContents(context: AppLoadContext, user: User, schema: unknown, value: unknown): Promise<Record<string, MediaContent>> {
  const out: Record<string, MediaContent> = {};
  const buckets = new Map<string, boolean>();
  for (const contentId of mediaIdsOf(schema, value)) {
    const media = await latestMedia(context.db, contentId);
    if (!media) continue;
    if (!buckets.has(media.bucketId)) {
      const bucket = await findBucketById(context.db, media.bucketId);
      buckets.set(media.bucketId, !!bucket && isBucketVisible(bucket, user));
    }
    if (buckets.get(media.bucketId)) out[contentId] = toMediaContent(media, await jobsOf(context.db, media.id));
  }
  return out;
}
