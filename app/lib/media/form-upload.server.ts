import { createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import type { AppLoadContext } from "react-router";
import { acceptUpload } from "../../../server/media/accept";
import { toMediaContent, type MediaContent } from "../../../server/media/content";
import { cleanFilename, formatBytes, UploadError, type UploadedFile } from "../../../server/media/upload";
import { findBucketById, isBucketVisible, type Bucket } from "../../../server/services/buckets";
import { jobsOf, latestMedia } from "../../../server/services/media";
import type { User } from "../../../server/services/users";
import { mediaKindOfSchema } from "../form/field-kind";
import { schemaAtName } from "../form/step";
import { isUuid } from "../ids";
import type { JsonSchema } from "../schema/normalize";
import { MAX_VIDEO_BYTES, mediaBounds, type MediaKind } from "./bounds";
import { MEDIA_FILE_PREFIX, MEDIA_UPLOAD_FIELD } from "./client";

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

interface ReceivedFile {
  name: string;
  kind: MediaKind;
  property: JsonSchema;
  file: UploadedFile;
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
  const received = await receiveForm(request, context, target.schema, post);
  try {
    for (const item of received) {
      try {
        const media = await acceptUpload(
          { kind: item.kind, file: item.file, property: item.property, bucketId: target.bucket.id, userId: target.user.id },
          { db: context.db, storage, ffmpeg },
        );
        if (item.kind === "video") jobs.kick();
        context.logger.info({ mediaId: media.id, kind: item.kind, size: media.size }, "media uploaded through the form");
        post.formData.set(item.name, media.contentId);
        post.contents[media.contentId] = toMediaContent(media, await jobsOf(context.db, media.id));
      } catch (error) {
        if (!(error instanceof UploadError)) throw error;
        (post.fieldErrors[item.name] ??= []).push(error.message);
      }
    }
  } finally {
    // acceptUpload removes its temporary file either way; these are the ones it never saw.
    await Promise.all(received.map((item) => storage.remove(item.file.temporaryPath)));
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

/** Streams the multipart body: text fields into `post.formData`, files into temporary files. */
async function receiveForm(request: Request, context: AppLoadContext, schema: JsonSchema, post: MediaFormPost): Promise<ReceivedFile[]> {
  const { storage } = context.media;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("Content-Type") ?? "" },
      defParamCharset: "utf8",
      limits: { fieldNameSize: 1024, fieldSize: MAX_TEXT_BYTES, fields: 10_000, files: MAX_FILES, parts: 10_000 + MAX_FILES, headerPairs: 50 },
    });
  } catch {
    throw new Response("The form's multipart boundary is missing or malformed.", { status: 400 });
  }
  if (!request.body) throw new Response("The form is empty.", { status: 400 });
  const source = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
  const files: ReceivedFile[] = [];
  const writes: Array<Promise<void>> = [];
  let textBytes = 0;
  let refusal: Response | undefined;
  const refuse = (status: number, message: string) => {
    refusal ??= new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    source.destroy();
    parser.destroy();
  };

  parser.on("field", (name, value, info) => {
    textBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (info.valueTruncated || info.nameTruncated || textBytes > MAX_TEXT_BYTES) refuse(413, `Request body too large: the form's fields may hold ${MAX_TEXT_BYTES} bytes.`);
    else post.formData.append(name, value);
  });
  parser.on("file", (partName, stream, info) => {
    stream.on("error", () => undefined);
    const name = partName.startsWith(MEDIA_FILE_PREFIX) ? partName.slice(MEDIA_FILE_PREFIX.length) : "";
    const property = name ? schemaAtName(schema, name) : null;
    const kind = property ? mediaKindOfSchema(property) : null;
    if (!property || !kind) {
      stream.resume();
      refuse(400, `The form has a file in '${partName}', which is not a media field.`);
      return;
    }
    if (!info.filename) {
      // No file chosen: browsers send an empty part.
      stream.resume();
      return;
    }
    const maxBytes = mediaBounds(kind, property).maxBytes;
    const file: UploadedFile = { temporaryPath: storage.temporaryPath(), size: 0, originalFilename: cleanFilename(info.filename) };
    files.push({ name, kind, property, file });
    writes.push(writeFile(stream, file, maxBytes, name));
  });

  /**
   * Streams one file to disk, counting. Over its limit, the rest of the file
   * is read into nothing (so that the fields after it, and the message under
   * the field, survive) up to the largest upload we take at all.
   */
  async function writeFile(stream: Readable, file: UploadedFile, maxBytes: number, name: string) {
    let tooLarge = false;
    const output = createWriteStream(file.temporaryPath, { flags: "wx" });
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        file.size += chunk.length;
        if (file.size > MAX_VIDEO_BYTES) callback(new UploadError(413, "too large"));
        else if (file.size > maxBytes) {
          tooLarge = true;
          callback();
        } else callback(null, chunk);
      },
    });
    try {
      await pipeline(stream, counter, output);
    } catch (error) {
      if (error instanceof UploadError) refuse(413, `The file in '${name}' is too large: the maximum is ${formatBytes(maxBytes)}.`);
      else refuse(400, "The upload was interrupted.");
    }
    if (!output.closed) await new Promise<void>((resolve) => output.once("close", () => resolve()));
    if (tooLarge) {
      files.splice(files.findIndex((item) => item.file === file), 1);
      await storage.remove(file.temporaryPath);
      (post.fieldErrors[name] ??= []).push(`The file is too large: the maximum is ${formatBytes(maxBytes)}.`);
    }
  }
  parser.on("filesLimit", () => refuse(400, `A form takes at most ${MAX_FILES} files.`));
  parser.on("fieldsLimit", () => refuse(413, "The form has too many fields."));
  parser.on("partsLimit", () => refuse(413, "The form has too many parts."));

  try {
    await pipeline(source, parser).catch(() => {
      refuse(400, "The form could not be read: the multipart body is malformed or was cut off.");
    });
    await Promise.all(writes);
    if (refusal) throw refusal;
    return files;
  } catch (error) {
    await Promise.all(files.map((item) => storage.remove(item.file.temporaryPath)));
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
