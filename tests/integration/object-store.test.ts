import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileSystemStore } from "@server/media/file-system-store";
import type { ObjectName, ObjectStore } from "@server/media/object-store";
import { MediaStorage } from "@server/media/storage";
import { s3StoreOn, startS3Server, type TestS3Server } from "@tests/support/s3-server";

/*
 * The media store's contract, run against both stores: the file system (MEDIA_DIR) and a real S3-protocol server
 * (s3rver). What the rest of the server relies on: a put consumes the local file, a move of a gone object fails
 * with ENOENT (another save took that pending upload), ranges, listing by area, removal that tolerates the gone.
 */

let s3: TestS3Server;
const roots: string[] = [];

beforeAll(async () => {
  s3 = await startS3Server();
});

afterAll(async () => {
  await s3.close();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function scratch(): string {
  const root = mkdtempSync(path.join(tmpdir(), "vitrine-store-"));
  roots.push(root);
  return root;
}

const backends: Array<[string, (root: string) => ObjectStore]> = [
  ["file system", (root) => new FileSystemStore(root)],
  // Each store of this file owns its keys.
  ["S3", () => s3StoreOn(s3, `run-${randomUUID()}/`)],
];

const named = (area: "files" | "pending", ext = "bin"): ObjectName => ({ area, name: `${randomUUID()}.${ext}` });
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function bytesOf(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe.each(backends)("the media store on %s", (_name, open) => {
  let root: string;
  let store: ObjectStore;
  const local = (bytes: Buffer) => {
    const file = path.join(root, `${randomUUID()}.part`);
    writeFileSync(file, bytes);
    return file;
  };

  beforeAll(() => {
    root = scratch();
    store = open(root);
  });

  it("puts a local file in (consuming it), answers its size and bytes, and a byte range of them", async () => {
    const bytes = randomBytes(100_000);
    const file = local(bytes);
    const object = named("files");
    await store.putFile(file, object);
    expect(existsSync(file)).toBe(false);
    const head = await store.head(object);
    expect(head?.size).toBe(100_000);
    expect(Math.abs(Date.now() - (head?.modifiedMs ?? 0))).toBeLessThan(60_000);
    expect(sha(await bytesOf(await store.read(object)))).toBe(sha(bytes));
    expect(await bytesOf(await store.read(object, { start: 10, end: 19 }))).toEqual(bytes.subarray(10, 20));
  });

  it("streams a file larger than one multipart part up and down whole", async () => {
    const bytes = randomBytes(20 * 1024 * 1024 + 17);
    const object = named("files", "mp4");
    await store.putFile(local(bytes), object);
    expect((await store.head(object))?.size).toBe(bytes.length);
    const copy = path.join(root, "copy.mp4");
    await store.copyToFile(object, copy);
    expect(sha(readFileSync(copy))).toBe(sha(bytes));
    expect(await store.head(object)).not.toBeNull();
  });

  it("moves between the areas, and a move of what is gone fails with ENOENT", async () => {
    const pending = named("pending", "jpg");
    const placed = named("files", "jpg");
    await store.putFile(local(Buffer.from("pending bytes")), pending);
    await store.move(pending, placed);
    expect(await store.head(pending)).toBeNull();
    expect((await bytesOf(await store.read(placed))).toString()).toBe("pending bytes");
    await expect(store.move(pending, named("files", "jpg"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("takes a file back out (undoing a placement) and removes, also what is already gone", async () => {
    const object = named("files");
    await store.putFile(local(Buffer.from("back again")), object);
    const back = path.join(root, `${randomUUID()}.part`);
    await store.takeFile(object, back);
    expect(readFileSync(back, "utf8")).toBe("back again");
    expect(await store.head(object)).toBeNull();
    await store.remove(object);
    await expect(store.read(object)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("lists an area's objects only, with their last change", async () => {
    const inFiles = named("files", "png");
    const inPending = named("pending", "png");
    await store.putFile(local(Buffer.from("a")), inFiles);
    await store.putFile(local(Buffer.from("b")), inPending);
    const listed = async (area: "files" | "pending") => {
      const names: string[] = [];
      for await (const item of store.list(area)) names.push(item.name);
      return names;
    };
    expect(await listed("files")).toContain(inFiles.name);
    expect(await listed("files")).not.toContain(inPending.name);
    expect(await listed("pending")).toEqual([inPending.name]);
  });

  it("refuses names it did not generate", async () => {
    await expect(store.head({ area: "files", name: "../../etc/passwd" })).rejects.toThrow(/Not a storage name/);
  });
});

describe("what only S3 does", () => {
  it("presigns a URL the store serves with the file's type, disposition and byte ranges; the file system has none", async () => {
    const store = backends[1]![1]("");
    const object = named("files", "txt");
    const root = scratch();
    const file = path.join(root, "hello.txt");
    writeFileSync(file, "hello, exhibits");
    await store.putFile(file, object);
    const url = await store.presignedUrl(object, {
      expiresInSeconds: 60,
      mimetype: "text/plain",
      disposition: 'inline; filename="hello.txt"',
    });
    const answer = await fetch(url!, { headers: { Range: "bytes=0-4" } });
    expect(answer.status).toBe(206);
    expect(await answer.text()).toBe("hello");
    expect(answer.headers.get("content-type")).toBe("text/plain");
    expect(answer.headers.get("content-disposition")).toBe('inline; filename="hello.txt"');
    expect(new URL(url!).searchParams.get("X-Amz-Expires")).toBe("60");
    expect(await new FileSystemStore(scratch()).presignedUrl()).toBeNull();
  });
});

describe("the servers' temporary folders", () => {
  const IDLE_MS = 10 * 60 * 1000;
  const age = (entry: string, ms: number) => {
    const then = new Date(Date.now() - ms);
    utimesSync(entry, then, then);
  };

  it("each server sweeps its own idle files, and another server's folder only once that server stopped touching it", async () => {
    const root = scratch();
    const one = new MediaStorage(root);
    const other = new MediaStorage(root);
    expect(one.tmpDir).not.toBe(other.tmpDir);
    const idle = one.temporaryPath("mp4");
    const fresh = one.temporaryPath("mp4");
    const othersIdle = other.temporaryPath("jpg");
    for (const file of [idle, fresh, othersIdle]) writeFileSync(file, "x");
    age(idle, IDLE_MS + 1000);
    // The other server's file is as old, but the other server is alive (it swept a moment ago): not one's to take.
    age(othersIdle, 5 * IDLE_MS);
    expect(await one.sweep(IDLE_MS)).toBe(1);
    expect([existsSync(idle), existsSync(fresh), existsSync(othersIdle)]).toEqual([false, true, true]);

    // A server that has not marked its folder alive for the idle time (stopped, killed): its folder goes.
    age(other.tmpDir, IDLE_MS + 1000);
    expect(await one.sweep(IDLE_MS)).toBe(1);
    expect(existsSync(other.tmpDir)).toBe(false);
    expect(existsSync(fresh)).toBe(true);

    // Files of versions before the per-server folders, directly under tmp/: idle ones go.
    const legacy = path.join(one.tmpRoot, `${randomUUID()}.part`);
    writeFileSync(legacy, "x");
    age(legacy, IDLE_MS + 1000);
    mkdirSync(path.join(one.tmpRoot, "server-stopping"), { recursive: true });
    expect(await one.sweep(IDLE_MS)).toBe(1);
    expect(existsSync(legacy)).toBe(false);
    expect(existsSync(path.join(one.tmpRoot, "server-stopping"))).toBe(true);
    await one.close();
    expect(existsSync(one.tmpDir)).toBe(false);
  });

  it("reads a stored file in place on the file system, and through a temporary copy from S3", async () => {
    const root = scratch();
    const onDisk = new MediaStorage(root);
    const inS3 = new MediaStorage(scratch(), backends[1]![1](""));
    for (const storage of [onDisk, inS3]) {
      const key = storage.newKey("jpg");
      const file = storage.temporaryPath("jpg");
      writeFileSync(file, "image bytes");
      await storage.commit(file, key);
      const copy = await storage.localCopy(key);
      expect(readFileSync(copy.path, "utf8")).toBe("image bytes");
      await copy.release();
      expect(existsSync(copy.path)).toBe(storage === onDisk);
      expect(copy.path.startsWith(storage.tmpDir)).toBe(storage === inS3);
    }
  });
});
