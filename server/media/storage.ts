import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readdir, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { FileSystemStore } from "./file-system-store";
import type { ByteRange, ObjectName, ObjectStore, PresignOptions, StoredObject } from "./object-store";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EXTENSION = /^[a-z0-9]{0,10}$/;

/** How often a running server marks its temporary folder as alive (markAlive): well within the sweep's idle time. */
export const ALIVE_MARK_MS = 60 * 1000;

/**
 * Media files: the store (server/media/object-store.ts) for finished files, and this server's own temporary
 * folder (tmp/<server>/ under MEDIA_DIR) where uploads and job outputs are written until complete. Each server
 * sweeps only its own folder's idle files, and removes another server's folder only once that server has not marked
 * it alive (every ALIVE_MARK_MS) for the sweep's idle time: it stopped or was killed. So servers sharing MEDIA_DIR
 * never delete each other's files in writing, and a killed server's leftovers go once they are stale.
 */
export class MediaStorage {
  readonly tmpRoot: string;
  readonly tmpDir: string;

  constructor(
    readonly root: string,
    readonly store: ObjectStore = new FileSystemStore(root),
  ) {
    this.tmpRoot = path.join(root, "tmp");
    this.tmpDir = path.join(this.tmpRoot, `server-${randomUUID()}`);
    mkdirSync(this.tmpDir, { recursive: true });
  }

  /** A fresh temporary path in this server's folder; `.part` marks it for the sweep. */
  temporaryPath(ext = ""): string {
    return path.join(this.tmpDir, `${randomUUID()}${ext ? `.${ext}` : ""}.part`);
  }

  /** A generated storage key: never the user's file name. */
  newKey(ext: string): string {
    return `${randomUUID()}${ext ? `.${ext}` : ""}`;
  }

  /** Where a pending upload waits: named by the media contentId it will get. */
  pendingObject(contentId: string, ext: string): ObjectName {
    if (!UUID.test(contentId) || !EXTENSION.test(ext)) throw new Error(`Not a pending upload: ${contentId}.${ext}`);
    return { area: "pending", name: `${contentId}${ext ? `.${ext}` : ""}` };
  }

  /** Puts a finished temporary file into the store under `key`. */
  async commit(temporaryPath: string, key: string): Promise<void> {
    await this.store.putFile(temporaryPath, files(key));
  }

  /** Puts a local temporary file, or a pending upload, into the files under `key`. */
  async place(from: { path: string } | { pending: ObjectName }, key: string): Promise<void> {
    if ("pending" in from) await this.store.move(from.pending, files(key));
    else await this.store.putFile(from.path, files(key));
  }

  /** Takes a placed file back where it came from (the save that placed it failed). */
  async unplace(key: string, to: { path: string } | { pending: ObjectName }): Promise<void> {
    if ("pending" in to) await this.store.move(files(key), to.pending);
    else await this.store.takeFile(files(key), to.path);
  }

  /** Keeps a checked local file as a pending upload. */
  async stash(temporaryPath: string, pending: ObjectName): Promise<void> {
    await this.store.putFile(temporaryPath, pending);
  }

  async removePending(pending: ObjectName): Promise<void> {
    await this.store.remove(pending);
  }

  head(key: string): Promise<StoredObject | null> {
    return this.store.head(files(key));
  }

  read(key: string, range?: ByteRange): Promise<Readable> {
    return this.store.read(files(key), range);
  }

  presignedUrl(key: string, options: PresignOptions): Promise<string | null> {
    return this.store.presignedUrl(files(key), options);
  }

  /**
   * A stored file as a local file (sharp and ffmpeg read files): the stored file itself on the file system, else
   * a temporary copy, removed by `release`.
   */
  async localCopy(key: string): Promise<{ path: string; release: () => Promise<void> }> {
    const inPlace = this.store.localPath(files(key));
    if (inPlace) return { path: inPlace, release: () => Promise.resolve() };
    const copy = this.temporaryPath(path.extname(key).slice(1));
    try {
      await this.store.copyToFile(files(key), copy);
    } catch (error) {
      await this.remove(copy);
      throw error;
    }
    return { path: copy, release: () => this.remove(copy) };
  }

  /** A stopping server's temporary folder goes with it (its uploads and jobs have ended). */
  async close(): Promise<void> {
    await rm(this.tmpDir, { recursive: true, force: true });
  }

  /** Removes a local (temporary) file. */
  async remove(filePath: string): Promise<void> {
    await rm(filePath, { force: true });
  }

  async removeKey(key: string): Promise<void> {
    await this.store.remove(files(key));
  }

  /** The stored file's path: the file-system store only (tests, and tools that read MEDIA_DIR). */
  pathOf(key: string): string {
    return this.fileSystem().pathOf(files(key));
  }

  get filesDir(): string {
    return this.fileSystem().filesDir;
  }

  get pendingDir(): string {
    return this.fileSystem().pendingDir;
  }

  private fileSystem(): FileSystemStore {
    if (!(this.store instanceof FileSystemStore)) throw new Error("The media store is not on the file system");
    return this.store;
  }

  /** Marks this server's temporary folder as in use (its mtime), for the other servers' sweeps. */
  async markAlive(): Promise<void> {
    const now = new Date();
    await utimes(this.tmpDir, now, now).catch(() => mkdirSync(this.tmpDir, { recursive: true }));
  }

  /**
   * The sweep of temporary files: files of this server's folder no one has written to for `idleMs` (what a
   * killed upload or worker left behind; live uploads keep their mtime fresh), folders of servers that have not
   * marked them alive for `idleMs` (stopped or killed), and files of versions before per-server folders. The count
   * removed.
   */
  async sweep(idleMs: number): Promise<number> {
    await this.markAlive();
    const now = new Date();
    let removed = await removeIdle(this.tmpDir, idleMs);
    for (const name of await readdir(this.tmpRoot)) {
      const entry = path.join(this.tmpRoot, name);
      if (entry === this.tmpDir) continue;
      if (name.startsWith("server-")) {
        const info = await stat(entry).catch(() => null);
        if (info && now.getTime() - info.mtimeMs >= idleMs) {
          await rm(entry, { recursive: true, force: true });
          removed += 1;
        }
      } else {
        removed += await removeIdle(this.tmpRoot, idleMs, name);
      }
    }
    return removed;
  }

  /** Pending uploads stored `maxAgeMs` ago or earlier, whatever their rows say (the rows go first). */
  async sweepPending(maxAgeMs: number): Promise<number> {
    let removed = 0;
    const now = Date.now();
    for await (const { name, modifiedMs } of this.store.list("pending")) {
      if (now - modifiedMs < maxAgeMs) continue;
      await this.store.remove({ area: "pending", name });
      removed += 1;
    }
    return removed;
  }
}

const files = (key: string): ObjectName => ({ area: "files", name: key });

/** Removes the entries of `dir` (or only `only`) idle for `idleMs`; the count removed. */
async function removeIdle(dir: string, idleMs: number, only?: string): Promise<number> {
  let removed = 0;
  const now = Date.now();
  for (const name of only ? [only] : await readdir(dir).catch(() => [] as string[])) {
    const entry = path.join(dir, name);
    const changed = await lastChange(entry);
    if (changed !== null && now - changed >= idleMs) {
      await rm(entry, { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}

/**
 * When a temporary file, or a job's output directory, was last written: a directory's own mtime does not change
 * while a file inside it grows, so its files count too. Null: gone meanwhile.
 */
async function lastChange(entry: string): Promise<number | null> {
  const info = await stat(entry).catch(() => null);
  if (!info) return null;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const name of await readdir(entry).catch(() => [] as string[])) {
    const inner = await stat(path.join(entry, name)).catch(() => null);
    if (inner) newest = Math.max(newest, inner.mtimeMs);
  }
  return newest;
}
