import type { Readable } from "node:stream";

/*
 * Where finished media files live: a folder on a (possibly shared) file system, or an S3-compatible bucket. Two
 * areas: files/ (what media rows name, served and delivered) and pending/ (checked uploads of a form that did not
 * save yet, never served). Files are written locally first (uploads, crops, ffmpeg's outputs) and put into the
 * store only when complete, so nothing half-written is ever read from it.
 */

export type StoreArea = "files" | "pending";

export interface ObjectName {
  area: StoreArea;
  /** A generated name (`<uuid>.<ext>`): never the user's file name. */
  name: string;
}

export interface StoredObject {
  size: number;
  modifiedMs: number;
}

/** Inclusive byte offsets. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PresignOptions {
  expiresInSeconds: number;
  mimetype: string;
  disposition: string;
}

export interface ObjectStore {
  readonly kind: "fs" | "s3";
  /** Puts a complete local file into the store; the local file is gone afterwards. */
  putFile(localPath: string, to: ObjectName): Promise<void>;
  /** Takes an object back out into a local file; the object is gone afterwards. */
  takeFile(from: ObjectName, localPath: string): Promise<void>;
  /** A local copy of an object (for sharp or ffmpeg); the object stays. */
  copyToFile(from: ObjectName, localPath: string): Promise<void>;
  /** Moves an object within the store; fails with code ENOENT when `from` is gone (another save took it). */
  move(from: ObjectName, to: ObjectName): Promise<void>;
  /** Size and last change, or null when there is no such object. */
  head(object: ObjectName): Promise<StoredObject | null>;
  /** The object's bytes (a range of them), streamed. */
  read(object: ObjectName, range?: ByteRange): Promise<Readable>;
  /** Removes an object; one already gone counts as removed. */
  remove(object: ObjectName): Promise<void>;
  /** Every object of an area with its last change, page by page. */
  list(area: StoreArea): AsyncIterable<{ name: string; modifiedMs: number }>;
  /** Where the object can be read in place on this machine (the file system), else null. */
  localPath(object: ObjectName): string | null;
  /** A URL the store itself serves the object at, for a while; null where it cannot (the file system). */
  presignedUrl(object: ObjectName, options: PresignOptions): Promise<string | null>;
}

/** What a store answers for an object that is not there, whatever the backend: code ENOENT like the file system. */
export function missingObject(object: ObjectName): Error & { code: string } {
  return Object.assign(new Error(`No stored object ${object.area}/${object.name}`), { code: "ENOENT" });
}
