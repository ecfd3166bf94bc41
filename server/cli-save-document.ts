import { open } from "node:fs/promises";
import type { ScreenTable } from "@core/content/screen-table";
import { findUserByEmail } from "./accounts/users";
import { findBucketBySlug } from "./content/buckets";
import { splitDocument, toDocument } from "./content/document";
import { saveDocument } from "./content/save";
import { VersionConflictError } from "./content/store";
import type { Queryable } from "./db/client";
import type { MediaStorage } from "./media/storage";
import { isPlainObject } from "@core/plain-object";
import { normalizeLocale, type Locale } from "@core/locales";

/*
 * `npm run vitrine -- save-document --bucket SLUG --as EMAIL --file DOC.json`: the CLI's adapter to the front door
 * (server/content/save.ts). DOC.json holds one document as the JSON API's `content` (its fields; with contentId
 * and _id, a new version of that document on top of version _id). It is checked and saved as the edit form and the
 * API save it, as the named user; the saved document is printed, a refusal is the API's {error, errors} on stderr.
 */

/** As large as the JSON API takes a body (server/web/api.ts MAX_JSON_BYTES). */
const MAX_FILE_BYTES = 1024 * 1024;

/** The file's JSON object, read whole only when it is no larger than the API takes. */
async function readDocumentFile(file: string): Promise<Record<string, unknown>> {
  let text: string;
  const handle = await open(file).catch((error: unknown) => {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new Error(`Cannot read ${file}: ${code ?? message}`);
  });
  try {
    if ((await handle.stat()).size > MAX_FILE_BYTES) throw new Error(`${file} is larger than 1 MiB, the most a document may be`);
    text = await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(value)) throw new Error(`${file} must hold one JSON object: the document's fields`);
  return value;
}

export async function saveDocumentCommand(
  deps: { db: Queryable; media: { storage: MediaStorage }; screens: ScreenTable },
  options: { bucket: string; as: string; file: string; defaultLocale: Locale },
): Promise<{ code: number; stdout?: string; stderr?: string }> {
  const bucket = await findBucketBySlug(deps.db, options.bucket);
  if (!bucket) throw new Error(`No bucket ${options.bucket}`);
  const actor = await findUserByEmail(deps.db, options.as);
  if (!actor || actor.deactivatedAt) throw new Error(`No active user with email ${options.as}`);
  const { contentId, baseVersionId, data } = splitDocument(await readDocumentFile(options.file));
  try {
    const locale = normalizeLocale(actor.locale) ?? options.defaultLocale;
    const saved = await saveDocument(deps, { actor, bucket, locale, contentId, baseVersionId, document: { payload: data } });
    if (!saved.ok)
      return { code: 1, stderr: JSON.stringify({ error: saved.message, errors: saved.errors.byField, locales: saved.errors.locales }) };
    return { code: 0, stdout: JSON.stringify(toDocument(saved.version)) };
  } catch (error) {
    if (error instanceof VersionConflictError)
      throw new Error(`Document ${contentId} has a newer version (${error.latestVersionId}) than _id ${baseVersionId}`);
    throw error;
  }
}
