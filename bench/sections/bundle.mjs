// Offline bundles: the server's memory while it streams a bundle holding 2 GB of media (docs/bundles.md). The
// section writes 20 media files of 100 MiB into a copy of the prepared data dir, records them as the trailers of
// 20 exhibitions and makes an API client (SQL, with the server stopped: PGlite is one process's database), then
// streams GET /api/v1/delivery/bundle through HTTP to nowhere while it samples the server's RSS.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { open, rm } from "node:fs/promises";
import { request } from "node:http";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { copyDataDir, publishAll, storesSearchText, withPglite } from "../lib/database.mjs";

const FILES = 20;
const FILE_BYTES = 100 * 2 ** 20;
const RSS_GROWTH_BUDGET_MIB = 64;

/** A file of `bytes` written from one 4 MiB block of random bytes, so nothing compresses or dedupes it away. */
async function writeMediaFile(file, bytes, block) {
  const handle = await open(file, "w");
  try {
    for (let written = 0; written < bytes;) {
      const piece = Math.min(block.length, bytes - written);
      await handle.write(block, 0, piece);
      written += piece;
    }
  } finally {
    await handle.close();
  }
}

async function prepare(dataDir) {
  const block = randomBytes(4 * 2 ** 20);
  const secret = randomBytes(32).toString("base64url");
  return withPglite(dataDir, async (query) => {
    const bucket = (await query("SELECT id FROM buckets WHERE slug = 'exhibitions'")).rows[0];
    if (!bucket) throw new Error("the prepared data dir has no demo exhibitions bucket");
    const storedText = await storesSearchText(query);
    for (let index = 0; index < FILES; index++) {
      const storageKey = `${randomUUID()}.mp4`;
      await writeMediaFile(path.join(dataDir, "media", "files", storageKey), FILE_BYTES, block);
      const media = await query(
        `INSERT INTO media (content_id, kind, bucket_id, storage_key, original_filename, mimetype, size, width, height, details)
         VALUES (gen_random_uuid(), 'video', $1, $2, $3, 'video/mp4', $4, 1920, 1080, '{}') RETURNING content_id`,
        [bucket.id, storageKey, `trailer-${index}.mp4`, FILE_BYTES],
      );
      const data = {
        title: { nl: `Tentoonstelling ${index}`, en: `Exhibition ${index}` },
        opensOn: "2027-01-01",
        trailer: media.rows[0].content_id,
      };
      await query(
        `WITH ids AS (SELECT gen_random_uuid() AS content_id, gen_random_uuid() AS version_id), c AS (
           INSERT INTO contents (content_id, bucket_id, latest_version_id${storedText ? ", search_text" : ""})
           SELECT content_id, $1, version_id${storedText ? ", document_search_text($2::jsonb)" : ""} FROM ids
         ) INSERT INTO versions (version_id, content_id, data) SELECT version_id, content_id, $2::jsonb FROM ids`,
        [bucket.id, JSON.stringify(data)],
      );
    }
    await publishAll(query);
    const client = await query(
      `INSERT INTO api_clients (name, secret_hash, read_buckets, write_buckets) VALUES ('Bench exhibit', $1, '{exhibitions,artists,artworks,rooms}', '{}') RETURNING id`,
      [createHash("sha256").update(secret).digest("base64url")],
    );
    return `${client.rows[0].id}.${secret}`;
  });
}

/** GETs a bundle and throws its bytes away as they come: { status, bytes, seconds }. */
function streamBundle(server, token, query, onChunk = () => {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(`${server.url}/api/v1/delivery/bundle?${query}`, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk) => {
        bytes += chunk.length;
        onChunk();
      });
      res.on("end", () => resolve({ status: res.statusCode, bytes, seconds: (performance.now() - started) / 1000 }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

export async function bundle(ctx) {
  const dataDir = copyDataDir(ctx, "bundle-data");
  try {
    ctx.log(`writing ${FILES} media files of ${FILE_BYTES / 2 ** 20} MiB …`);
    const token = await prepare(dataDir);
    const server = await ctx.startServer({ dataDir, profileName: "bundle" });
    try {
      // Warm up the route (a small bundle), so the growth measured is the streaming, not the first call's code loading.
      const warm = await streamBundle(server, token, "buckets=artists&locales=nl,en");
      if (warm.status !== 200) throw new Error(`the warm-up bundle answered ${warm.status}`);
      await sleep(500);
      const before = server.rss();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, server.rss() ?? 0)), 50);
      let result;
      try {
        result = await streamBundle(server, token, "buckets=exhibitions,artists&locales=nl,en&populate=1");
      } finally {
        clearInterval(sampler);
      }
      if (result.status !== 200) throw new Error(`the bundle answered ${result.status}`);
      if (result.bytes < FILES * FILE_BYTES) throw new Error(`the bundle held ${result.bytes} bytes, less than its media`);
      const growthMiB = (peak - before) / 2 ** 20;
      const rate = result.bytes / 2 ** 20 / result.seconds;
      ctx.log(
        `${(result.bytes / 2 ** 30).toFixed(2)} GiB bundle: ${result.seconds.toFixed(1)} s (${rate.toFixed(0)} MiB/s), RSS ${(before / 2 ** 20).toFixed(0)} → peak ${(peak / 2 ** 20).toFixed(0)} MiB`,
      );
      return [
        {
          name: "server RSS growth while a bundle with 2 GB of media streams",
          value: growthMiB,
          unit: "MiB",
          budget: `< ${RSS_GROWTH_BUDGET_MIB} MiB`,
          pass: growthMiB < RSS_GROWTH_BUDGET_MIB,
          note: `${(result.bytes / 2 ** 30).toFixed(2)} GiB in ${result.seconds.toFixed(1)} s, ${rate.toFixed(0)} MiB/s`,
        },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
