// The JSON API under load: saving a realistic ~2 kB document (a new document
// each time, so no conflicts) and reading one, on PGlite and, when a
// PostgreSQL URL is given, on a fresh PostgreSQL database.
import { startOnPglite, startOnPostgres } from "../lib/bench-server.mjs";
import { postgresAdminUrl } from "../lib/database.mjs";
import { BENCH_BUCKET, benchDocument } from "../lib/document.mjs";
import { throughputRows } from "../lib/load-rows.mjs";

const CONNECTIONS = 10;
const DURATION_S = 10;
const WARMUP_S = 2;
const MIN_SAVES = { PGlite: 400, PostgreSQL: 600 };
const MIN_READS = 1000;

async function measure(ctx, database, bench) {
  const { server } = bench;
  const cookie = await ctx.signIn(server);
  // A browser's write shows its origin; a cookie without one is refused as cross-site.
  const headers = { "Content-Type": "application/json", Cookie: cookie, Origin: server.url };
  const saveUrl = `${server.url}/api/v1/buckets/${BENCH_BUCKET.slug}/save`;
  const body = JSON.stringify({ content: benchDocument(1), collection: BENCH_BUCKET.collectionName });

  // One save by hand first: under load a wrong payload would only show as a count of non-2xx answers.
  const first = await fetch(saveUrl, { method: "POST", headers, body });
  const saved = await first.json();
  if (first.status !== 201) throw new Error(`POST ${saveUrl} answered ${first.status}: ${JSON.stringify(saved).slice(0, 500)}`);

  const load = { connections: CONNECTIONS, duration: DURATION_S, warmup: WARMUP_S };
  const kB = (Buffer.byteLength(body) / 1000).toFixed(1);
  const rows = await throughputRows(ctx, server, {
    ...load,
    label: `save a new ${kB} kB document (${database})`,
    unit: "saves/s",
    url: saveUrl,
    method: "POST",
    headers,
    body,
    minRps: MIN_SAVES[database],
  });

  const readUrl = `${server.url}/api/v1/buckets/${BENCH_BUCKET.slug}/content/${saved.contentId}/latest`;
  const read = await fetch(readUrl, { headers: { Cookie: cookie } });
  if (read.status !== 200) throw new Error(`GET ${readUrl} answered ${read.status}`);
  rows.push(
    ...(await throughputRows(ctx, server, {
      ...load,
      label: `read one document (${database})`,
      url: readUrl,
      headers: { Cookie: cookie },
      minRps: MIN_READS,
    })),
  );
  return rows;
}

export async function contentApi(ctx) {
  const rows = [];
  const pglite = await startOnPglite(ctx, "content-api-pglite");
  try {
    rows.push(...(await measure(ctx, "PGlite", pglite)));
  } finally {
    await pglite.stop();
  }

  const adminUrl = postgresAdminUrl();
  if (!adminUrl) {
    ctx.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure it)");
    return rows;
  }
  const postgres = await startOnPostgres(ctx, adminUrl, "content-api-postgres");
  try {
    ctx.log(`PostgreSQL: fresh database ${postgres.database.name}`);
    rows.push(...(await measure(ctx, "PostgreSQL", postgres)));
  } finally {
    await postgres.stop();
  }
  return rows;
}
