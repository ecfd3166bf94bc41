import { createReadStream, mkdirSync } from "node:fs";
import { copyFile, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { missingObject, type ByteRange, type ObjectName, type ObjectStore, type StoreArea, type StoredObject } from "./object-store";

const NAME = /^[0-9a-f-]{36}(\.[a-z0-9]{1,10})?$/;

/**
 * The store as two folders of MEDIA_DIR (files/, pending/), on one file system with the servers' temporary
 * folders so that putting a finished file in place is an atomic rename. Several servers share it through a
 * shared mount.
 */
export class FileSystemStore implements ObjectStore {
  readonly kind = "fs";
  readonly filesDir: string;
  readonly pendingDir: string;

  constructor(readonly root: string) {
    this.filesDir = path.join(root, "files");
    this.pendingDir = path.join(root, "pending");
    for (const dir of [this.filesDir, this.pendingDir]) mkdirSync(dir, { recursive: true });
  }

  pathOf({ area, name }: ObjectName): string {
    if (!NAME.test(name)) throw new Error(`Not a storage name: ${name}`);
    return path.join(area === "files" ? this.filesDir : this.pendingDir, name);
  }

  localPath(object: ObjectName): string {
    return this.pathOf(object);
  }

  async putFile(localPath: string, to: ObjectName): Promise<void> {
    // Its age counts from its arrival, before it arrives: the sweep of unnamed files (orphans.ts) must never see an
    // old file there that a save is about to name (a pending upload of yesterday).
    const now = new Date();
    await utimes(localPath, now, now);
    await moveFile(localPath, this.pathOf(to));
  }

  async takeFile(from: ObjectName, localPath: string): Promise<void> {
    await moveFile(this.pathOf(from), localPath);
  }

  async copyToFile(from: ObjectName, localPath: string): Promise<void> {
    await copyFile(this.pathOf(from), localPath);
  }

  async move(from: ObjectName, to: ObjectName): Promise<void> {
    await this.putFile(this.pathOf(from), to);
  }

  async head(object: ObjectName): Promise<StoredObject | null> {
    const info = await stat(this.pathOf(object)).catch(() => null);
    return info?.isFile() ? { size: info.size, modifiedMs: info.mtimeMs } : null;
  }

  async read(object: ObjectName, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(object);
    const stream = createReadStream(file, range ?? {});
    // Opening fails asynchronously; wait for it so that a missing file is an error here, not mid-response.
    await new Promise<void>((resolve, reject) => {
      stream.once("open", () => resolve());
      stream.once("error", (error: NodeJS.ErrnoException) => reject(error.code === "ENOENT" ? missingObject(object) : error));
    });
    return stream;
  }

  async remove(object: ObjectName): Promise<void> {
    await rm(this.pathOf(object), { force: true });
  }

  async *list(area: StoreArea): AsyncIterable<{ name: string; modifiedMs: number }> {
    const dir = area === "files" ? this.filesDir : this.pendingDir;
    for (const name of await readdir(dir)) {
      if (!NAME.test(name)) continue;
      const info = await stat(path.join(dir, name)).catch(() => null);
      if (info?.isFile()) yield { name, modifiedMs: info.mtimeMs };
    }
  }

  presignedUrl(): Promise<null> {
    return Promise.resolve(null);
  }
}

/** A rename; a copy and delete where the two paths are on different file systems. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}
