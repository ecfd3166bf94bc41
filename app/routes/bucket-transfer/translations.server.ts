import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { AppLoadContext } from "react-router";
import type { User } from "@server/accounts/users";
import type { Bucket } from "@server/content/buckets";
import { HttpError } from "@server/errors";
import type { MediaStorage } from "@server/media/storage";
import { receiveMultipart, type IncomingBody } from "@server/media/upload";
import { isUuid } from "@core/ids";

/*
 * The translations page's files (issue 34): an uploaded XLIFF file is kept in DATA_DIR/translations between its check
 * and its import, named after its bucket, its uploader and a random id, so only who uploaded it can import it from
 * that bucket. A kept file is removed when it is imported; files left for a day are removed at the next upload.
 */

/** The largest XLIFF file taken: it is read whole to be parsed. */
export const MAX_XLIFF_BYTES = 16 * 1024 * 1024;

const KEPT_FOR_MS = 24 * 60 * 60 * 1000;

export interface KeptTranslationFile {
  id: string;
  fileName: string;
  target: string;
}

/** The upload form's post: the XLIFF file (`file`) and the language it translates into (`locale`). */
export async function receiveTranslationUpload(
  body: IncomingBody,
  storage: MediaStorage,
): Promise<{ bytes: Buffer; fileName: string; locale: string }> {
  const received = await receiveMultipart<"file">(body, storage, {
    limits: { fields: 5, fieldSize: 1024, parts: 6, files: 1 },
    oversize: { mode: "refuse" },
    planFile: (partName, filename) => (filename && partName === "file" ? { maxBytes: MAX_XLIFF_BYTES, tag: "file" } : null),
  });
  const [upload] = received.files;
  try {
    if (!upload) throw new HttpError(400, "translations.noFile");
    if (!/\.(xlf|xliff|xml)$/i.test(upload.file.originalFilename)) throw new HttpError(400, "translations.badFileType");
    const locale = received.fields.find(([name]) => name === "locale")?.[1] ?? "";
    return { bytes: await readFile(upload.file.temporaryPath), fileName: upload.file.originalFilename, locale };
  } finally {
    await Promise.all(received.files.map((file) => storage.remove(file.file.temporaryPath)));
  }
}

async function folderOf(context: AppLoadContext): Promise<string> {
  const folder = path.resolve(context.config.DATA_DIR, "translations");
  await mkdir(folder, { recursive: true });
  return folder;
}

const baseName = (bucket: Pick<Bucket, "id">, user: Pick<User, "id">, id: string) => `${bucket.id}.${user.id}.${id}`;

/** Keeps a checked file for its import; answers its id. Files older than a day are removed meanwhile. */
export async function keepTranslationFile(
  context: AppLoadContext,
  owner: { bucket: Pick<Bucket, "id">; user: Pick<User, "id"> },
  file: { bytes: Buffer; fileName: string; target: string },
): Promise<string> {
  const folder = await folderOf(context);
  await removeOldFiles(folder);
  const id = randomUUID();
  const base = path.join(folder, baseName(owner.bucket, owner.user, id));
  await writeFile(`${base}.xlf`, file.bytes);
  await writeFile(`${base}.json`, JSON.stringify({ fileName: file.fileName, target: file.target }));
  return id;
}

/** A kept file of this user and bucket, or null (never kept, imported, or removed). */
export async function keptTranslationFile(
  context: AppLoadContext,
  owner: { bucket: Pick<Bucket, "id">; user: Pick<User, "id"> },
  id: string | null,
): Promise<(KeptTranslationFile & { bytes: Buffer }) | null> {
  if (!isUuid(id ?? undefined) || !id) return null;
  const base = path.join(await folderOf(context), baseName(owner.bucket, owner.user, id.toLowerCase()));
  try {
    const facts = JSON.parse(await readFile(`${base}.json`, "utf8")) as { fileName: string; target: string };
    return { id, fileName: facts.fileName, target: facts.target, bytes: await readFile(`${base}.xlf`) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

export async function removeTranslationFile(
  context: AppLoadContext,
  owner: { bucket: Pick<Bucket, "id">; user: Pick<User, "id"> },
  id: string,
): Promise<void> {
  const base = path.join(await folderOf(context), baseName(owner.bucket, owner.user, id.toLowerCase()));
  await Promise.all([rm(`${base}.xlf`, { force: true }), rm(`${base}.json`, { force: true })]);
}

async function removeOldFiles(folder: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(folder)) {
    const file = path.join(folder, name);
    const facts = await stat(file).catch(() => null);
    if (facts && now - facts.mtimeMs > KEPT_FOR_MS) await rm(file, { force: true });
  }
}
