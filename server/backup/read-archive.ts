import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import type { ManifestFile } from "@server/delivery/tar-entries";
import { BackupError, MANIFEST_ENTRY } from "./archive";

/*
 * A backup read once, front to back: each entry handed on as it streams and hashed on the way, manifest.json (the
 * last entry) kept. What the entries are worth is only known at the end, when the caller compares the hashes with
 * the manifest.
 */

/** manifest.json lists every file with its hash: some hundred bytes each; more than this is no manifest. */
const MANIFEST_LIMIT = 256 * 1024 * 1024;

/** Consumes the entry's bytes to their end (writes them somewhere). `index` counts from 0. */
export type EntryHandler = (name: string, body: Readable, index: number) => Promise<void>;

export interface ReadArchive {
  /** Every entry but manifest.json, in archive order, as read. */
  entries: ManifestFile[];
  manifestText: string;
}

async function readManifest(entry: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry) {
    size += chunk.length;
    if (size > MANIFEST_LIMIT) throw new BackupError("The backup's manifest.json is too large to be a manifest: the backup is damaged.");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export async function readArchive(file: string, onEntry: EntryHandler): Promise<ReadArchive> {
  const extract = tar.extract();
  let damage: Error | undefined;
  extract.on("error", (error: Error) => (damage ??= error));
  const source = createReadStream(file);
  source.on("error", (error: Error) => (damage ??= error));
  const feeding = pipeline(source, extract);
  feeding.catch(() => undefined); // its failure is `damage`, or the handler's that stopped the reading
  const entries: ManifestFile[] = [];
  let manifestText: string | undefined;
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (manifestText !== undefined) throw new BackupError(`The backup ${file} has an entry after its manifest (${name}): it is damaged.`);
      if (name === MANIFEST_ENTRY) {
        manifestText = await readManifest(entry as AsyncIterable<Buffer>);
        continue;
      }
      const hash = createHash("sha256");
      let size = 0;
      const hashed = async function* () {
        for await (const chunk of entry as AsyncIterable<Buffer>) {
          hash.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      };
      await onEntry(name, Readable.from(hashed(), { objectMode: false }), entries.length);
      entries.push({ path: name, size, sha256: hash.digest("hex") });
    }
  } catch (error) {
    // A refusal of ours (or the handler's) stands; anything else while the archive failed is that failure.
    if (damage && !(error instanceof BackupError))
      throw new BackupError(`The backup ${file} is incomplete or damaged (${damage.message}).`);
    throw error;
  }
  if (damage) throw new BackupError(`The backup ${file} is incomplete or damaged (${damage.message}).`);
  if (manifestText === undefined)
    throw new BackupError(`The backup ${file} has no manifest.json at its end: it is incomplete (cut off while written or copied?).`);
  return { entries, manifestText };
}

/** The name of the archive's first entry (its database), read from its first header only; null when there is none. */
export async function firstEntryName(file: string): Promise<string | null> {
  const extract = tar.extract();
  const source = createReadStream(file, { end: 1023 }); // a header, or an extended header and the start of the next
  const feeding = pipeline(source, extract);
  feeding.catch(() => undefined);
  try {
    for await (const entry of extract) {
      entry.resume();
      return entry.header.name;
    }
  } catch {
    return null;
  } finally {
    extract.destroy();
  }
  return null;
}

/** Every entry as the manifest lists it (size and SHA-256), none missing, none added. */
export function verifyEntries(entries: ManifestFile[], listed: ManifestFile[], file: string): void {
  const byPath = new Map(listed.map((item) => [item.path, item]));
  for (const entry of entries) {
    const expected = byPath.get(entry.path);
    if (!expected) throw new BackupError(`The backup ${file} holds ${entry.path}, which its manifest does not list: it is damaged.`);
    if (expected.size !== entry.size || expected.sha256 !== entry.sha256)
      throw new BackupError(`The backup ${file} is damaged: ${entry.path} does not match the SHA-256 its manifest gives.`);
    byPath.delete(entry.path);
  }
  const [absent] = byPath.keys();
  if (absent !== undefined) throw new BackupError(`The backup ${file} is incomplete: ${absent}, listed in its manifest, is not in it.`);
}
