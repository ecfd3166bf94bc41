import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EXTENSION = /^[a-z0-9]{0,10}$/;

/**
 * Media files on disk: uploads and job outputs are written under tmp/ and
 * renamed into files/ when complete, so nothing half-written is ever served.
 * A checked upload of a form that was not saved waits in pending/ (never
 * served, no media row) until a save takes it into files/ or the sweep
 * removes it. All three share one file system, which makes the renames atomic.
 */
export class MediaStorage {
  readonly tmpDir: string;
  readonly filesDir: string;
  readonly pendingDir: string;

  constructor(readonly root: string) {
    this.tmpDir = path.join(root, "tmp");
    this.filesDir = path.join(root, "files");
    this.pendingDir = path.join(root, "pending");
    for (const dir of [this.tmpDir, this.filesDir, this.pendingDir]) mkdirSync(dir, { recursive: true });
  }

  /** A fresh temporary path; `.part` marks it for the sweep. */
  temporaryPath(ext = ""): string {
    return path.join(this.tmpDir, `${randomUUID()}${ext ? `.${ext}` : ""}.part`);
  }

  /** A generated storage key: never the user's file name. */
  newKey(ext: string): string {
    return `${randomUUID()}${ext ? `.${ext}` : ""}`;
  }

  pathOf(key: string): string {
    if (!/^[0-9a-f-]{36}(\.[a-z0-9]{1,10})?$/.test(key)) throw new Error(`Not a storage key: ${key}`);
    return path.join(this.filesDir, key);
  }

  /** Moves a finished temporary file into place under `key`. */
  async commit(temporaryPath: string, key: string): Promise<void> {
    await rename(temporaryPath, this.pathOf(key));
  }

  /** Where a pending upload waits: named by the media contentId it will get. */
  pendingPath(contentId: string, ext: string): string {
    if (!UUID.test(contentId) || !EXTENSION.test(ext)) throw new Error(`Not a pending upload: ${contentId}.${ext}`);
    return path.join(this.pendingDir, `${contentId}${ext ? `.${ext}` : ""}`);
  }

  /** Renames a file between tmp/, pending/ and files/. */
  async move(from: string, to: string): Promise<void> {
    await rename(from, to);
  }

  async remove(filePath: string): Promise<void> {
    await rm(filePath, { force: true });
  }

  async removeKey(key: string): Promise<void> {
    await this.remove(this.pathOf(key));
  }

  /**
   * Deletes files of `dir` (tmp/ unless told) no one has written to for
   * `idleMs`: what a killed server or worker left behind. Live uploads keep
   * their mtime fresh.
   */
  async sweep(idleMs: number, dir = this.tmpDir): Promise<number> {
    let removed = 0;
    const now = Date.now();
    for (const name of await readdir(dir)) {
      const file = path.join(dir, name);
      const changed = await lastChange(file);
      if (changed !== null && now - changed >= idleMs) {
        await rm(file, { recursive: true, force: true });
        removed += 1;
      }
    }
    return removed;
  }
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
