import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import yazl from "yazl";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite, openPostgres } from "@server/db/client";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { processEnv } from "@tests/support/media-server";
import { runVitrine } from "@tests/support/cli";
import { createTestDatabase } from "@tests/support/server";

/* `npm run vitrine -- import-documents --zip` (issue 34): a CSV's image cells taken from the ZIP, as a real process. */

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function zipOf(entries: Record<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(content, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe("import-documents --zip", () => {
  it("makes the images the cells name into media items, once however often it runs", async () => {
    const database = await createTestDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), "vitrine-import-cli-zip-"));
    cleanups.push(async () => {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });
    const user = await createTestUser(database.db);
    const bucket = await createTestBucket(database.db, {
      jsonSchema: {
        type: "object",
        properties: { ref: { type: "string" }, image: { type: "string", _ref: "b-image", minWidth: 10 } },
      },
    });
    await database.db.close();
    const pixels = Buffer.from(Array.from({ length: 40 * 40 * 3 }, (_, index) => (index * 31) % 251));
    const image = await sharp(pixels, { raw: { width: 40, height: 40, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const zip = path.join(dir, "media.zip");
    writeFileSync(zip, await zipOf({ "img/a.png": image }));
    const csv = path.join(dir, "works.csv");
    writeFileSync(csv, "ref,image\nC-1,img/a.png\nC-2,img/missing.png\n");
    const env = processEnv(database, path.join(dir, "media"));
    const args = ["import-documents", "--bucket", bucket.slug, "--as", user.email, "--file", csv, "--zip", zip, "--key", "ref"];

    const first = await runVitrine(env, ...args);
    expect(first.stdout, first.stderr).toMatch(/done: 2 rows: 1 new, 0 updated, 0 unchanged, 1 refused\./);
    expect(first.stdout + first.stderr).toContain("row 2, image: The ZIP holds no file “img/missing.png”.");
    const again = await runVitrine(env, ...args);
    expect(again.stdout, again.stderr).toMatch(/done: 2 rows: 0 new, 0 updated, 1 unchanged, 1 refused\./);

    database.db = database.databaseUrl ? openPostgres(database.databaseUrl) : await openPglite(database.dataDir);
    const { rows } = await database.db.query<{ items: number; named: number }>(
      `SELECT (SELECT count(*)::int FROM media_items WHERE bucket_id = $1) AS items,
              (SELECT count(*)::int FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
               JOIN media_items i ON i.content_id::text = v.data->>'image' WHERE c.bucket_id = $1) AS named`,
      [bucket.id],
    );
    expect(rows[0]).toEqual({ items: 1, named: 1 });
  }, 120_000);
});
