import type { Db, Queryable } from "@server/db/client";
import type { MediaServices } from "@server/services";
import type { MediaKind } from "@core/media/bounds";
import { checkUpload, type MediaFacts } from "./accept";
import type { ObjectName } from "./object-store";
import type { MediaStorage } from "./storage";
import { insertMedia, type JobName, type MediaRow } from "./store";
import type { UploadedFile } from "./upload";

/*
 * One media intake for the API and the edit form: checkUpload (server/media/accept.ts) only reads a file;
 * committing it is placeMedia (into the store) and recordMedia (its row and jobs, in the caller's
 * transaction). The API runs both at once; the form commits only once the whole document is valid, in the
 * transaction that saves it.
 */

/**
 * A checked upload that is not in the files of the store yet: where it is now (a local temporary file, or a pending
 * upload in the store), what it is, the contentId it gets.
 */
export type StagedMedia = {
  facts: MediaFacts;
  /** The media content it becomes (a new one, or a new version of this content). */
  contentId?: string;
} & ({ path: string } | { pending: ObjectName });

export interface MediaOwner {
  bucketId: string;
  /** Null for an API client's save (no user stands behind it). */
  userId: string | null;
}

export const jobNamesFor = (kind: MediaKind): JobName[] => (kind === "video" ? ["transcode", "still-creation"] : []);

/** A staged file moved into the store: the key it has there. */
export type PlacedMedia = StagedMedia & { key: string };

/**
 * Puts staged files into the store, each under a new key. If one fails, the
 * ones already placed go back where they were. `undo` puts them all back (a
 * failed transaction after this).
 */
export async function placeMedia(
  storage: MediaStorage,
  staged: readonly StagedMedia[],
): Promise<{ placed: PlacedMedia[]; undo: () => Promise<void> }> {
  const placed: PlacedMedia[] = [];
  const undo = async () => {
    for (const item of placed) await storage.unplace(item.key, item).catch(() => undefined);
  };
  try {
    for (const item of staged) {
      const key = storage.newKey(item.facts.ext);
      await storage.place(item, key);
      placed.push({ ...item, key });
    }
  } catch (error) {
    await undo();
    throw error;
  }
  return { placed, undo };
}

/** The media rows (and a video's jobs) of placed files, in the caller's transaction. */
export async function recordMedia(tx: Queryable, placed: readonly PlacedMedia[], owner: MediaOwner): Promise<MediaRow[]> {
  const rows: MediaRow[] = [];
  for (const item of placed) {
    const { ext: _ext, ...facts } = item.facts;
    rows.push(
      await insertMedia(
        tx,
        { ...facts, contentId: item.contentId, bucketId: owner.bucketId, storageKey: item.key, createdBy: owner.userId },
        jobNamesFor(facts.kind),
      ),
    );
  }
  return rows;
}

/** Starts the job runner when new media have jobs (videos). */
export function kickJobs(media: { jobs?: Pick<MediaServices["jobs"], "kick"> }, kinds: Iterable<MediaKind>): void {
  if ([...kinds].some((kind) => jobNamesFor(kind).length)) media.jobs?.kick();
}

/**
 * The API's upload: the checks, then the file into the store and its row
 * with its jobs. The temporary file is gone afterwards either way.
 */
export async function intakeUpload(
  input: { kind: MediaKind; file: UploadedFile; property: Record<string, unknown>; owner: MediaOwner; contentId?: string },
  deps: { db: Db; media: MediaServices },
): Promise<MediaRow> {
  const { storage } = deps.media;
  let placed: PlacedMedia[] = [];
  try {
    const facts = await checkUpload(input, deps.media.ffmpeg);
    ({ placed } = await placeMedia(storage, [{ path: input.file.temporaryPath, facts, contentId: input.contentId }]));
    const [row] = await deps.db.transaction((tx) => recordMedia(tx, placed, input.owner));
    if (!row) throw new Error("The media row was not recorded");
    kickJobs(deps.media, [facts.kind]);
    return row;
  } catch (error) {
    await Promise.all(placed.map((item) => storage.removeKey(item.key).catch(() => undefined)));
    await storage.remove(input.file.temporaryPath);
    throw error;
  }
}
