// The media library (/media, docs/media.md) with 100,000 media items, seeded with SQL, on PGlite and (when a
// PostgreSQL URL is given) on PostgreSQL, signed in as the bench's admin (who sees every bucket).
// Each page is measured as the overview measures its page (sections/overview.mjs): one editor at a time (1
// connection), after 6 s of warm-up, p50 and p99 and the server's CPU per page. The first answer of each page, right
// after seeding, is in the row's note: the bench runs no ANALYZE, and each database's row says whether the planner had
// statistics for media_items (PGlite's start analyses contents and versions only: server/db/statistics.ts). Servers
// run with MEDIA_WORKERS=0.
// The page's work: listLibrary (one page of 48, one row more for "next"), countMissingAlt (over every image of the
// visible buckets) and usersForFilter, in server/media/library.ts.
import { startOnPglite, startOnPostgres } from "../lib/bench-server.mjs";
import { postgresAdminUrl, withPglite, withPostgres } from "../lib/database.mjs";
import { cpuRow, loadNotes } from "../lib/load-rows.mjs";

// BENCH_MEDIA_ITEMS=10000 measures another size (seeding 100,000 takes a while: the media table's trigger makes each
// row's media_items row, and that one's trigger looks for documents naming it).
const SIZE = process.env.BENCH_MEDIA_ITEMS ? Number(process.env.BENCH_MEDIA_ITEMS) : 100_000;
const BUDGET_SIZE = 100_000;
// The issue's budget: the library page at 100,000 items, p50 on PGlite.
const MAX_P50_MS = { PGlite: 50 };
const DURATION_S = 5;
const WARMUP_S = 6; // as the overview: the steady state once V8 has optimised the render
const FIRST_MAX_MS = 30_000;

/** The pages measured; `expect` is a text the answer must hold (the newest item, the item searched for). */
const PAGES = [
  { name: "grid, newest first", path: "/media", expect: ">photo-1.jpg<" },
  { name: "list, by name", path: "/media?view=list&sort=name" },
  { name: "search ?q=photo-99999", path: "/media?q=photo-99999", expect: ">photo-99999.jpg<" },
  { name: "?use=unused", path: "/media?use=unused" },
  { name: "?alt=missing&kind=image", path: "/media?alt=missing&kind=image" },
];

/**
 * Media items `from`..`to` (inclusive) of one bucket in one statement, as uploads write them: one `media` row each
 * (its own content, a first version), which the trigger `media_items_of_versions` turns into the library's
 * media_items row. Nine in ten are JPEG photos (`photo-<n>.jpg`), one in ten a PDF (`notes-<n>.pdf`); one second older
 * per number, so the newest is number 1. No alternative texts, no uses: every image misses its alternative text.
 */
export async function seedMedia(query, bucketId, { from, to, userEmail }) {
  const { rows } = await query("SELECT id FROM users WHERE email = $1", [userEmail]);
  if (!rows[0]) throw new Error(`no user ${userEmail} to upload the media`);
  await query(
    `INSERT INTO media (content_id, kind, bucket_id, storage_key, original_filename, mimetype, size, width, height, created_by, created_at)
     SELECT gen_random_uuid(),
            CASE WHEN n % 10 = 0 THEN 'file' ELSE 'image' END,
            $1::uuid,
            CASE WHEN n % 10 = 0 THEN 'x-' || n || '.pdf' ELSE 'x-' || n || '.jpg' END,
            CASE WHEN n % 10 = 0 THEN 'notes-' || n || '.pdf' ELSE 'photo-' || n || '.jpg' END,
            CASE WHEN n % 10 = 0 THEN 'application/pdf' ELSE 'image/jpeg' END,
            200000 + (n * 7919) % 4800000,
            CASE WHEN n % 10 = 0 THEN NULL ELSE 1200 + (n % 7) * 400 END,
            CASE WHEN n % 10 = 0 THEN NULL ELSE 800 + (n % 5) * 300 END,
            $4::uuid,
            now() - n * interval '1 second'
     FROM generate_series($2::int, $3::int) AS n`,
    [bucketId, from, to, rows[0].id],
  );
}

/** What the planner knows of the library's tables: "none" (never analysed) or their row estimates. */
async function statistics(query) {
  const { rows } = await query(
    `SELECT c.relname AS name, c.reltuples::bigint AS estimate,
            (SELECT count(*) FROM pg_statistic s WHERE s.starelid = c.oid)::int AS columns
     FROM pg_class c WHERE c.relname IN ('media', 'media_items', 'media_uses') AND c.relkind = 'r' ORDER BY c.relname`,
  );
  return `planner statistics: ${rows.map((row) => `${row.name} ${row.columns > 0 ? `~${Number(row.estimate).toLocaleString("en")} rows` : "none"}`).join(", ")}`;
}

/** One GET, timed, checked: the page must answer 200 (and hold `expect`). */
async function firstAnswer(url, headers, expect) {
  const started = performance.now();
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(FIRST_MAX_MS) });
  const html = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200 || (expect && !html.includes(expect))) {
    throw new Error(`GET ${url} answered ${response.status}${response.status === 200 ? ` without ${expect}` : ""}`);
  }
  return { ms, bytes: Buffer.byteLength(html) };
}

async function measure(ctx, server, cookie, database) {
  const headers = { Cookie: cookie };
  const rows = [];
  const budgeted = SIZE === BUDGET_SIZE && MAX_P50_MS[database] !== undefined;
  // The first answer of each page first: the ones an editor meets right after the items arrived.
  const firsts = [];
  for (const page of PAGES) firsts.push(await firstAnswer(`${server.url}${page.path}`, headers, page.expect));
  for (const [index, page] of PAGES.entries()) {
    const url = `${server.url}${page.path}`;
    const label = `/media ${page.name}, ${SIZE.toLocaleString("en")} items (${database})`;
    ctx.log(`${label}: ${WARMUP_S} s warm-up, then ${DURATION_S} s at 1 connection`);
    const result = await ctx.measureLoad({ url, headers, connections: 1, duration: DURATION_S, warmup: WARMUP_S, server });
    const { failed, note } = loadNotes(result);
    const first = firsts[index];
    rows.push(
      {
        name: `${label} p50`,
        value: result.p50,
        unit: "ms",
        budget: budgeted ? `<= ${MAX_P50_MS[database]} ms` : undefined,
        pass: budgeted ? result.p50 <= MAX_P50_MS[database] && !failed : null,
        note: [`first request ${first.ms.toFixed(0)} ms, ${result.total} requests, ${(first.bytes / 1024).toFixed(0)} kB of HTML`, note]
          .filter(Boolean)
          .join("; "),
      },
      { name: `${label} p99`, value: result.p99, unit: "ms" },
      cpuRow(label, result),
    );
  }
  return rows;
}

/** Adds the statistics the planner had (read once the measurement is done) to the database's first row. */
function noteStatistics(rows, text) {
  if (rows[0]) rows[0].note = `${rows[0].note}; ${text}`;
}

async function onPglite(ctx) {
  const started = performance.now();
  const seed = (query, bucketId) => seedMedia(query, bucketId, { from: 1, to: SIZE, userEmail: ctx.adminEmail });
  const bench = await startOnPglite(ctx, "media-library-pglite", seed);
  try {
    ctx.log(
      `PGlite: ${SIZE.toLocaleString("en")} media items seeded, server ready, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const cookie = await ctx.signIn(bench.server);
    const rows = await measure(ctx, bench.server, cookie, "PGlite");
    // PGlite is one process's database: what the planner knew is read with the server stopped.
    await bench.server.stop();
    noteStatistics(rows, await withPglite(bench.dataDir, statistics));
    return rows;
  } finally {
    await bench.stop();
  }
}

async function onPostgres(ctx, adminUrl) {
  const bench = await startOnPostgres(ctx, adminUrl, "media-library-postgres");
  try {
    const started = performance.now();
    await withPostgres(bench.database.url, (query) => seedMedia(query, bench.bucketId, { from: 1, to: SIZE, userEmail: ctx.adminEmail }));
    ctx.log(`PostgreSQL: ${SIZE.toLocaleString("en")} media items seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const cookie = await ctx.signIn(bench.server);
    const rows = await measure(ctx, bench.server, cookie, "PostgreSQL");
    const autovacuum = await withPostgres(bench.database.url, async (query) => (await query("SHOW autovacuum")).rows[0].autovacuum);
    noteStatistics(rows, `${await withPostgres(bench.database.url, statistics)} (autovacuum ${autovacuum})`);
    return rows;
  } finally {
    await bench.stop();
  }
}

/**
 * No media jobs (as the presence section): a fresh PostgreSQL database's demo videos would otherwise be transcoded
 * while the pages are measured. The seeded items have no jobs either way.
 */
function withoutMediaWorkers(ctx) {
  return { ...ctx, startServer: (options = {}) => ctx.startServer({ ...options, env: { MEDIA_WORKERS: "0", ...options.env } }) };
}

export async function mediaLibrary(context) {
  const ctx = withoutMediaWorkers(context);
  const rows = await onPglite(ctx);
  const adminUrl = postgresAdminUrl();
  if (adminUrl) rows.push(...(await onPostgres(ctx, adminUrl)));
  else ctx.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure it)");
  return rows;
}
