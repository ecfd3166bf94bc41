import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import yauzl from "yauzl";
import type { Message } from "@core/messages";
import { tooLargeMessage } from "@core/media/bounds";
import { ImportFileError } from "./import-source";

/*
 * The ZIP of images and files uploaded beside an import's data (issue 34): its directory read once (the entry names a
 * cell may give), each entry unpacked only when a row names it, to a temporary file the media intake checks as any
 * upload. A ZIP bomb gets nowhere: the entries' declared sizes are capped in sum and each entry is cut off at its
 * field's byte limit while it unpacks (yauzl also refuses an entry that unpacks to another size than it declares);
 * encrypted entries and names that leave the archive's folder (`..`, `/…`) are refused.
 */

/** The most entries a ZIP may hold. */
export const MAX_ZIP_ENTRIES = 20_000;
/** The most bytes its entries may unpack to, together (their declared sizes). */
export const MAX_ZIP_UNPACKED = 8 * 1024 ** 3;

export type ZipEntry = yauzl.Entry;

export type FoundEntry = { entry: ZipEntry } | { problem: Message };

export interface ImportZip {
  /** The entry a cell names (`images/night-watch.jpg`, also `./images\night-watch.jpg`), or why there is none. */
  find(name: string): FoundEntry;
  /** Unpacks an entry to `target`, cut off over `maxBytes` (an HttpError-free Message then); its size and SHA-256. */
  extract(entry: ZipEntry, target: string, maxBytes: number): Promise<{ size: number; sha256: string } | { problem: Message }>;
  close(): void;
}

/** A cell's name as the ZIP's directory spells it, or null for a name that leaves the archive's folder. */
export function entryNameOf(cell: string): string | null {
  const name = cell
    .trim()
    .replace(/\\/g, "/")
    .replace(/^(\.\/)+/, "");
  if (!name || name.startsWith("/") || /^[a-zA-Z]:/.test(name) || name.split("/").includes("..")) return null;
  return name;
}

const unreadable = () => new ImportFileError({ key: "transfer.zipUnreadable" });

/** Reads a ZIP's directory: an ImportFileError when it is no ZIP, holds too many entries or unpacks too large. */
export async function openImportZip(path: string): Promise<ImportZip> {
  let zip: yauzl.ZipFile;
  try {
    // decodeStrings off: yauzl would fail the whole archive at one unsafe name; such an entry is left out instead.
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true });
  } catch {
    throw unreadable();
  }
  try {
    if (zip.entryCount > MAX_ZIP_ENTRIES)
      throw new ImportFileError({ key: "transfer.zipTooManyEntries", params: { max: MAX_ZIP_ENTRIES } });
    const entries = await readDirectory(zip);
    return {
      find(cell) {
        const name = entryNameOf(cell);
        if (name === null) return { problem: { key: "transfer.mediaUnsafePath", params: { name: cell } } };
        const entry = entries.get(name);
        if (!entry) return { problem: { key: "transfer.mediaMissing", params: { name } } };
        if (entry.isEncrypted()) return { problem: { key: "transfer.mediaEncrypted", params: { name } } };
        return { entry };
      },
      extract: (entry, target, maxBytes) => extractEntry(zip, entry, target, maxBytes),
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function readDirectory(zip: yauzl.ZipFile): Promise<Map<string, ZipEntry>> {
  const entries = new Map<string, ZipEntry>();
  let unpacked = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: ZipEntry) => {
      const raw = entry.fileName as unknown as Buffer;
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
      entry.fileName = name;
      unpacked += entry.uncompressedSize;
      if (unpacked > MAX_ZIP_UNPACKED) {
        reject(new ImportFileError({ key: "transfer.zipTooLarge", params: { max: `${MAX_ZIP_UNPACKED / 1024 ** 3} GB` } }));
        return;
      }
      if (!name.endsWith("/") && yauzl.validateFileName(name) === null) entries.set(name, entry);
      zip.readEntry();
    });
    zip.once("end", () => resolve());
    zip.once("error", () => reject(unreadable()));
    zip.readEntry();
  });
  return entries;
}

class EntryTooLarge extends Error {}

async function extractEntry(
  zip: yauzl.ZipFile,
  entry: ZipEntry,
  target: string,
  maxBytes: number,
): Promise<{ size: number; sha256: string } | { problem: Message }> {
  const name = entry.fileName;
  if (entry.uncompressedSize > maxBytes) return { problem: tooLargeMessage(maxBytes) };
  const hash = createHash("sha256");
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(new EntryTooLarge());
        return;
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  try {
    const stream = await zip.openReadStreamPromise(entry);
    await pipeline(stream, counter, createWriteStream(target, { flags: "wx" }));
  } catch (error) {
    if (error instanceof EntryTooLarge) return { problem: tooLargeMessage(maxBytes) };
    return { problem: { key: "transfer.mediaUnreadable", params: { name } } };
  }
  return { size, sha256: hash.digest("hex") };
}
