// Importing documents (issue 34, docs/transfer.md): a 100,000-row NDJSON file of bench documents (about 2 kB each)
// uploaded through /b/{slug}/import, checked (the dry run) and then imported by its inventory number, on PGlite and
// (when a PostgreSQL URL is given) on PostgreSQL. Rows: documents per second of each run (from the upload's answer
// to the run's end, read off its page), and the server's resident memory growth while the import runs (sampled every
// 100 ms, against its memory before the upload): the rows are streamed, never held.
import { openAsBlob, rmSync, writeFileSync, appendFileSync } from "node:fs";
import path from "node:path";
import { startOnPglite, startOnPostgres } from "../lib/bench-server.mjs";
import { postgresAdminUrl } from "../lib/database.mjs";
import { BENCH_BUCKET, benchDocument } from "../lib/document.mjs";

const ROWS = process.env.BENCH_IMPORT_ROWS ? Number(process.env.BENCH_IMPORT_ROWS) : 100_000;
const MAX_RSS_GROWTH_MIB = 64;
const RUN_MAX_MS = 15 * 60 * 1000;
/**
 * The rows after which the import's memory counts against the budget. A cold server's first writes fill PGlite's
 * caches and both heaps once: about 88 MiB whether 20,000 or 100,000 rows follow (2026-12-05), so that growth says
 * nothing of whether rows are held; what the rest of the import adds does.
 */
const WARM_ROWS = 1000;

function writeFile(ctx) {
  const file = path.join(ctx.tmpDir, `import-${ROWS}.ndjson`);
  writeFileSync(file, "");
  const chunk = 1000;
  for (let from = 1; from <= ROWS; from += chunk) {
    const lines = [];
    for (let n = from; n < Math.min(from + chunk, ROWS + 1); n += 1) lines.push(JSON.stringify(benchDocument(n)));
    appendFileSync(file, `${lines.join("\n")}\n`);
  }
  return file;
}

/** Waits for the run's page to stop reloading itself; answers its HTML. */
async function ended(server, cookie, runPath, onTick) {
  const deadline = Date.now() + RUN_MAX_MS;
  for (;;) {
    const html = await (await fetch(`${server.url}${runPath}`, { headers: { Cookie: cookie } })).text();
    if (!html.includes('http-equiv="refresh"')) return html;
    if (Date.now() > deadline) throw new Error(`${runPath} still running after ${RUN_MAX_MS / 1000} s`);
    onTick?.(html);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function measure(ctx, server, label, file) {
  const cookie = await ctx.signIn(server);
  const base = `/b/${BENCH_BUCKET.slug}/import`;
  const headers = { Cookie: cookie, Origin: server.url };
  const form = new FormData();
  form.append("file", await openAsBlob(file), "bench.ndjson");
  const before = server.rss();
  let peak = before ?? 0;
  const sample = () => (peak = Math.max(peak, server.rss() ?? 0));
  const sampler = setInterval(sample, 100);
  try {
    ctx.log(`${label}: uploading ${ROWS.toLocaleString("en")} rows and checking them`);
    const started = performance.now();
    const uploaded = await fetch(`${server.url}${base}`, { method: "POST", redirect: "manual", headers, body: form });
    const checkPath = uploaded.headers.get("location");
    if (uploaded.status !== 302 || !checkPath) throw new Error(`the upload answered ${uploaded.status}: ${await uploaded.text()}`);
    const uploadedAt = performance.now();
    const checked = await ended(server, cookie, checkPath);
    const checkMs = performance.now() - uploadedAt;
    if (
      !checked.includes(`${ROWS.toLocaleString("en")} rows checked: ${ROWS.toLocaleString("en")} new`) &&
      !checked.includes(`${ROWS} rows checked: ${ROWS} new`)
    )
      throw new Error(`the check did not find ${ROWS} new rows: ${/<p role="status">([^<]*)/.exec(checked)?.[1]}`);
    ctx.log(`${label}: importing`);
    const imported = await fetch(`${server.url}${checkPath}`, {
      method: "POST",
      redirect: "manual",
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ key: "inventoryNumber", intent: "import" }),
    });
    const runPath = imported.headers.get("location");
    if (imported.status !== 302 || !runPath) throw new Error(`the import answered ${imported.status}`);
    const importStarted = performance.now();
    // The memory after the first rows are written: from there on, what the import's own rows add.
    let warm = null;
    const done = await ended(server, cookie, runPath, (html) => {
      sample();
      const rowsDone = Number(/Importing… ([\d,]+) rows? so far/.exec(html)?.[1]?.replaceAll(",", "") ?? 0);
      if (warm === null && rowsDone >= WARM_ROWS) warm = { rss: server.rss(), peak: 0 };
      if (warm) warm.peak = Math.max(warm.peak, server.rss() ?? 0);
    });
    const importMs = performance.now() - importStarted;
    if (!done.includes(`${ROWS} rows imported: ${ROWS} new`))
      throw new Error(`the import did not create ${ROWS}: ${/<p role="status">([^<]*)/.exec(done)?.[1]}`);
    const growth = before === null ? null : (peak - before) / 2 ** 20;
    const warmGrowth = warm?.rss ? (warm.peak - warm.rss) / 2 ** 20 : null;
    return [
      { name: `${label}: upload of ${ROWS.toLocaleString("en")} rows`, value: uploadedAt - started, unit: "ms" },
      { name: `${label}: dry run`, value: (ROWS / checkMs) * 1000, unit: "docs/s", note: `${(checkMs / 1000).toFixed(1)} s` },
      { name: `${label}: import`, value: (ROWS / importMs) * 1000, unit: "docs/s", note: `${(importMs / 1000).toFixed(1)} s` },
      {
        name: `${label}: server RSS growth during the check and import`,
        value: growth,
        unit: "MiB",
        note: before === null ? "RSS not readable" : `from ${(before / 2 ** 20).toFixed(0)} MiB, cold: caches and heaps filled once`,
      },
      {
        name: `${label}: server RSS growth over the import after its first ${WARM_ROWS.toLocaleString("en")} rows`,
        value: warmGrowth,
        unit: "MiB",
        budget: `< ${MAX_RSS_GROWTH_MIB} MiB`,
        pass: warmGrowth !== null && warmGrowth < MAX_RSS_GROWTH_MIB,
        note: warm?.rss ? `from ${(warm.rss / 2 ** 20).toFixed(0)} MiB` : "the run's page never showed the first rows",
      },
    ];
  } finally {
    clearInterval(sampler);
  }
}

export async function importSection(ctx) {
  const file = writeFile(ctx);
  const rows = [];
  try {
    const pglite = await startOnPglite(ctx, "import-pglite");
    try {
      rows.push(...(await measure(ctx, pglite.server, "PGlite", file)));
    } finally {
      await pglite.stop();
    }
    const adminUrl = postgresAdminUrl();
    if (adminUrl) {
      const postgres = await startOnPostgres(ctx, adminUrl, "import-postgres");
      try {
        rows.push(...(await measure(ctx, postgres.server, "PostgreSQL", file)));
      } finally {
        await postgres.stop();
      }
    } else ctx.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure it)");
  } finally {
    rmSync(file, { force: true });
  }
  return rows;
}
