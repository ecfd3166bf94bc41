import type { Db } from "@server/db/client";
import type { MediaServices } from "@server/services";
import { HttpError, messagesOf } from "@server/errors";
import { compileBucketSchema } from "@server/content/validator";
import { MAX_VIDEO_BYTES, tooLargeMessage, type MediaKind } from "@core/media/bounds";
import { followReplacement, useItemsOf } from "./use-items";
import { mediaFitErrors } from "@core/media/fit";
import { LIBRARY_UPLOAD_FILES } from "@core/media/library";
import type { Message } from "@core/messages";
import { checkUpload } from "./accept";
import { intakeUpload, kickJobs, placeMedia, recordMedia } from "./intake";
import { mediaReferences } from "./form-upload";
import { IMAGE_EXTENSIONS } from "./sniff";
import { usingDocuments } from "./library-item";
import { receiveMultipart, type IncomingBody, type UploadedFile } from "./upload";
import type { LibraryBucket } from "./library";

/*
 * Files put into the media library directly (docs/media.md): several at once, each checked by its content as an upload
 * into a field is (type, size, the image header or ffprobe) but without a field's bounds, which apply when a field
 * uses it. A replacement is a new version of an item, checked against the bounds of every field that uses it.
 */

/** No field: any size of picture or video an upload may have (the kinds' byte limits still hold). */
const NO_FIELD: Record<MediaKind, Record<string, unknown>> = {
  image: { minWidth: 1, minHeight: 1 },
  video: { minWidth: 1, minHeight: 1, maxWidth: 16_384, maxHeight: 16_384 },
  file: {},
};

/** What a file is by its content: a picture sharp reads, a video, or any other file. */
async function kindOf(path: string): Promise<MediaKind> {
  const { fileTypeFromFile } = await import("file-type");
  const type = await fileTypeFromFile(path);
  if (type && IMAGE_EXTENSIONS.has(type.ext)) return "image";
  if (type?.mime.startsWith("video/")) return "video";
  return "file";
}

/** One file's outcome: the item it became, or why not (messages of the catalogue). */
export type LibraryUploadResult = { filename: string } & ({ contentId: string; kind: MediaKind } | { errors: Message[] });

const errorsOf = (error: unknown): Message[] => {
  if (!(error instanceof HttpError)) throw error;
  return messagesOf(error);
};

/**
 * Receives a library upload (`bucket`, the slug, before the files in `files`) and takes in each file on its own: one
 * refused file leaves the others in. Throws for the whole upload only when it cannot be read or names no bucket.
 */
export async function uploadToLibrary(
  body: IncomingBody,
  buckets: readonly LibraryBucket[],
  userId: string,
  deps: { db: Db; media: MediaServices },
): Promise<{ bucket: LibraryBucket; results: LibraryUploadResult[] }> {
  let bucket: LibraryBucket | undefined;
  const received = await receiveMultipart(body, deps.media.storage, {
    limits: { fields: 10, fieldSize: 1024, parts: LIBRARY_UPLOAD_FILES + 10, files: LIBRARY_UPLOAD_FILES },
    oversize: { mode: "skip", skipUpTo: Number.MAX_SAFE_INTEGER },
    planFile(partName, filename, fieldsBefore) {
      if (partName !== "files" || !filename) return null;
      const slug = fieldsBefore.findLast(([name]) => name === "bucket")?.[1];
      bucket = buckets.find((candidate) => candidate.slug === slug);
      if (!bucket) throw new HttpError(400, "library.uploadErrors.bucketMissing");
      return { maxBytes: MAX_VIDEO_BYTES, tag: null };
    },
  });
  if (!bucket || received.files.length === 0) throw new HttpError(400, "library.uploadErrors.noFiles");
  const owner = { bucketId: bucket.id, userId };
  const results: LibraryUploadResult[] = [];
  for (const { file, tooLarge } of received.files) {
    const filename = file.originalFilename;
    if (tooLarge !== undefined) {
      results.push({ filename, errors: [tooLargeMessage(tooLarge)] });
      continue;
    }
    try {
      const kind = await kindOf(file.temporaryPath);
      const row = await intakeUpload({ kind, file, property: NO_FIELD[kind], owner }, deps);
      results.push({ filename, contentId: row.contentId, kind });
    } catch (error) {
      results.push({ filename, errors: errorsOf(error) });
    }
  }
  return { bucket, results };
}

/** A use a replacement would break: the document, the field and the field's messages. */
export interface BrokenUse {
  title: string;
  field: string;
  errors: Message[];
}

/**
 * A new file for an item: the same kind, checked as an upload, then against the bounds of every field that uses the
 * item (in the newest version of each document); refused with the uses it would break, or made the item's newest
 * version, which every use shows from then on (history keeps the old one; a video's jobs run again).
 */
export async function replaceMediaFile(
  item: { contentId: string; kind: MediaKind; bucketId: string },
  file: UploadedFile,
  userId: string,
  deps: { db: Db; media: MediaServices },
): Promise<{ broken: BrokenUse[] }> {
  const { storage } = deps.media;
  try {
    const facts = await checkUpload({ kind: item.kind, file, property: NO_FIELD[item.kind] }, deps.media.ffmpeg);
    const stored = { ...facts, fps: facts.details.fps, codec: facts.details.codec, extension: facts.ext };
    const broken: BrokenUse[] = [];
    // A use through one of its use items (use-items.ts) gets the new file too.
    const names = new Set([item.contentId, ...(await useItemsOf(deps.db, item.contentId))]);
    for (const use of await usingDocuments(deps.db, item.contentId)) {
      const { schema } = compileBucketSchema(use.bucket);
      for (const reference of mediaReferences(schema, use.data)) {
        if (!names.has(reference.contentId.toLowerCase())) continue;
        const errors = mediaFitErrors(item.kind, reference.property, stored);
        if (errors.length) broken.push({ title: use.title, field: reference.label, errors });
      }
    }
    if (broken.length) {
      await storage.remove(file.temporaryPath);
      return { broken };
    }
    const { placed, undo } = await placeMedia(storage, [{ path: file.temporaryPath, facts, contentId: item.contentId }]);
    try {
      await deps.db.transaction(async (tx) => {
        const [replaced] = await recordMedia(tx, placed, { bucketId: item.bucketId, userId });
        if (replaced) await followReplacement(tx, replaced, userId);
      });
    } catch (error) {
      await undo();
      throw error;
    }
    kickJobs(deps.media, [item.kind]);
    return { broken: [] };
  } catch (error) {
    await storage.remove(file.temporaryPath);
    throw error;
  }
}
