// The JSON API under load: saving a realistic ~2 kB document (a new document
// each time, so no conflicts) and reading one, on PGlite and, when a
// PostgreSQL URL is given, on a fresh PostgreSQL database. Right before each
// of ours, a bare node:http server (bench/baselines/bare-db-server.mjs) does
// the same SQL work through the same driver with the same load settings: our
// figure is printed as a fraction of it, and a budget holds as an absolute
// figure (on a quiet machine) or as that fraction (on any machine).
import { startBareDbServer } from "../baselines/db-baseline.mjs";
import { startOnPglite, startOnPostgres } from "../lib/bench-server.mjs";
import { createPostgresDatabase, postgresAdminUrl } from "../lib/database.mjs";
import { BENCH_BUCKET, benchDocument } from "../lib/document.mjs";
import { baselineRun, throughputRows } from "../lib/load-rows.mjs";

const CONNECTIONS = 10;
const DURATION_S = 10;
const WARMUP_S = 2;
const MIN_SAVES = { PGlite: 600, PostgreSQL: 1200 };
const MIN_READS = { PGlite: 1200, PostgreSQL: 2500 };
const MIN_FRACTION = 0.5;

/** The bare server's save and read, checked by hand: { saveUrl, readUrl }. */
async function bareUrls(bare, body) {
  const saveUrl = `${bare.url}/save`;
  const saved = await fetch(saveUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  if (saved.status !== 201) throw new Error(`the bare server's save answered ${saved.status}: ${await saved.text()}`);
  const { contentId } = await saved.json();
  const readUrl = `${bare.url}/read/${contentId}`;
  const read = await fetch(readUrl);
  if (read.status !== 200) throw new Error(`the bare server's read answered ${read.status}`);
  return { saveUrl, readUrl };
}

async function measure(ctx, database, bench, bare) {
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
  const bareAt = await bareUrls(bare, body);

  const load = { connections: CONNECTIONS, duration: DURATION_S, warmup: WARMUP_S };
  const kB = (Buffer.byteLength(body) / 1000).toFixed(1);
  const saveLabel = `save a new ${kB} kB document (${database})`;
  const bareSave = await baselineRun(ctx, bare, `bare ${database} INSERT`, {
    ...load,
    url: bareAt.saveUrl,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
  const rows = await throughputRows(ctx, server, {
    ...load,
    label: saveLabel,
    unit: "saves/s",
    url: saveUrl,
    method: "POST",
    headers,
    body,
    minRps: MIN_SAVES[database],
    minFraction: MIN_FRACTION,
    baseline: bareSave,
  });

  const readUrl = `${server.url}/api/v1/buckets/${BENCH_BUCKET.slug}/content/${saved.contentId}/latest`;
  const read = await fetch(readUrl, { headers: { Cookie: cookie } });
  if (read.status !== 200) throw new Error(`GET ${readUrl} answered ${read.status}`);
  const bareRead = await baselineRun(ctx, bare, `bare ${database} SELECT`, { ...load, url: bareAt.readUrl });
  rows.push(
    ...(await throughputRows(ctx, server, {
      ...load,
      label: `read one document (${database})`,
      url: readUrl,
      headers: { Cookie: cookie },
      minRps: MIN_READS[database],
      minFraction: MIN_FRACTION,
      baseline: bareRead,
    })),
  );
  return rows;
}

export async function contentApi(ctx) {
  const rows = [];
  const pglite = await startOnPglite(ctx, "content-api-pglite");
  const barePglite = await startBareDbServer(ctx, { name: "content-api-bare-pglite" });
  try {
    rows.push(...(await measure(ctx, "PGlite", pglite, barePglite)));
  } finally {
    await barePglite.stop();
    await pglite.stop();
  }

  const adminUrl = postgresAdminUrl();
  if (!adminUrl) {
    ctx.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure it)");
    return rows;
  }
  const postgres = await startOnPostgres(ctx, adminUrl, "content-api-postgres");
  const bareDatabase = await createPostgresDatabase(adminUrl);
  let barePostgres = null;
  try {
    ctx.log(`PostgreSQL: fresh databases ${postgres.database.name} (ours), ${bareDatabase.name} (bare)`);
    barePostgres = await startBareDbServer(ctx, { databaseUrl: bareDatabase.url });
    rows.push(...(await measure(ctx, "PostgreSQL", postgres, barePostgres)));
  } finally {
    await barePostgres?.stop();
    await bareDatabase.drop();
    await postgres.stop();
  }
  return rows;
}
