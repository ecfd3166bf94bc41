// Presence (issue 32): what 100 open edit pages of one document cost a server while nobody types, and how long one
// change takes to reach them. Each open edit page holds an event stream (GET /b/{slug}/{id}/presence?page=…); the
// server reads the database only when a notice says something changed, renews its streams' rows once a minute (one
// statement) and writes a comment to each stream every 25 s.
//
// Per engine: a server with one document; 100 edit pages of it opened as a browser does (the page, then its stream,
// until the stream's first `editors` event) and a window with them open and nobody typing; then a colleague opens
// the document and marks it unsaved and saved again, in turn: the time from the PUT until all 100 streams have the
// change; then the pages close and a window with none open (the server's own background work: the webhook
// dispatcher's and release scheduler's polls, PGlite's statistics check) is the comparison. Measured in each window:
// server CPU (Node, and on PostgreSQL its processes for the bench's database: lib/postgres-cpu.mjs) and statements run
// by SQL text (PGlite: counted inside the server, lib/server-probe.mjs; PostgreSQL: the counting proxy,
// lib/pg-proxy.mjs). Each window starts once V8's memory reducer is done with the work before it (SETTLE). Both
// engines run side by side, their windows at the same time: an idle server does not disturb another, and the
// section stays near two minutes.
import { randomBytes, scrypt } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { copyDataDir, createPostgresDatabase, insertBucket, postgresAdminUrl, withPglite, withPostgres } from "../lib/database.mjs";
import { BENCH_BUCKET, benchDocument } from "../lib/document.mjs";
import { startPgProxy } from "../lib/pg-proxy.mjs";
import { samplePostgresCpu } from "../lib/postgres-cpu.mjs";
import { median } from "../lib/report.mjs";
import { serverProbe, statementsBetween } from "../lib/server-probe.mjs";

const PAGES = 100;
const OPEN_AT_ONCE = 10;
/** No page open (after the pages closed): the server's own background work, for comparison. */
const QUIET_S = 20;
/** 100 pages open: one renewal (every minute, from the first stream) and two or three keep-alive rounds (every 25 s). */
const IDLE_S = 62;
/**
 * Before a window, what the opening (or the changes and the closing) set off is let finish: V8's memory reducer runs
 * one to three full collections after a burst of work (100–300 ms of CPU, once, not while idle): 9–13 s after it on
 * a quiet machine, later on a busy one. The window starts 3 s after the last full collection that came at least 5 s
 * after the work, or at the latest `maxMs` after the work (40 s after the opening; 20 s after the closing, which
 * leaves too little garbage for one). A window logs the full collections that fell in it.
 */
const SETTLE = { gcAfterMs: 5000, quietAfterGcMs: 3000, maxMs: { opening: 40_000, closing: 20_000 } };
/** Presence changes timed: the colleague's page marked unsaved, then saved, alternately. */
const CHANGES = 6;
/** What 100 open pages may add to an idle server: CPU (% of one core) and statements per second. */
const MAX_ADDED_CPU_PERCENT = 1;
const MAX_ADDED_STATEMENTS_PER_S = 0.1;
/** A change reaches every open page within this (the hub gathers notices for 30 ms before it reads). */
const MAX_TELL_MS = 250;

/** No media jobs: a fresh database's demo videos would be transcoded during the windows (the presence test does the same). */
const ENV = { MEDIA_WORKERS: "0" };
const COLLEAGUE = { name: "Bench Colleague", email: "bench-colleague@vitrine.local", password: "bench-colleague-password" };
const PRESENCE_STATEMENT = /\bpresence\b/i;

/** A password hash the server verifies (server/security/password.ts's format, at the tests' fixture cost). */
async function fixtureHash(password) {
  const cost = { N: 2 ** 10, r: 8, p: 1 };
  const salt = randomBytes(16);
  const key = await promisify(scrypt)(password.normalize("NFKC"), salt, 32, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$");
}

async function insertColleague(query) {
  await query("INSERT INTO users (name, email, password_hash, permissions) VALUES ($1, $2, $3, '{user}')", [
    COLLEAGUE.name,
    COLLEAGUE.email,
    await fixtureHash(COLLEAGUE.password),
  ]);
}

async function signInAs(server, { email, password }) {
  const response = await fetch(`${server.url}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status} ${await response.text()}`);
  return response.headers.get("set-cookie").split(";")[0];
}

/**
 * An open event stream read as a browser's EventSource reads it: `events` ({ event, data, at }) as they arrive;
 * next(event, matches, from) resolves with the first such event from index `from` on.
 */
async function openStream(url, cookie) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { Cookie: cookie, Accept: "text/event-stream" }, signal: controller.signal });
  if (response.status !== 200 || !response.body) throw new Error(`GET ${url} answered ${response.status}`);
  const events = [];
  /** When each comment (the server's keep-alive) came. */
  const comments = [];
  const waiters = new Set();
  let ended = false;
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      for await (const chunk of response.body) {
        buffered += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffered.indexOf("\n\n")) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data !== undefined) events.push({ event, data: JSON.parse(data), at: performance.now() });
          else if (block.startsWith(":")) comments.push(performance.now());
        }
        for (const wake of waiters) wake();
      }
    } catch {
      // closed
    } finally {
      ended = true;
      for (const wake of waiters) wake();
    }
  })();
  return {
    events,
    comments,
    next(event, matches = () => true, from = 0, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const found = events.slice(from).find((entry) => entry.event === event && matches(entry.data));
          if (found) finish(() => resolve(found));
          else if (ended) finish(() => reject(new Error(`the stream ${url} ended before a "${event}" event`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`no "${event}" event on ${url} within ${timeoutMs} ms`))), timeoutMs);
        const finish = (done) => {
          clearTimeout(timer);
          waiters.delete(look);
          done();
        };
        waiters.add(look);
        look();
      });
    },
    close: () => controller.abort(),
  };
}

/** The edit page's presence page id, or null (a build without presence). */
async function openEditPage(server, editPath, cookie) {
  const response = await fetch(`${server.url}${editPath}`, { headers: { Cookie: cookie } });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`GET ${editPath} answered ${response.status}`);
  return /data-presence-page="([^"]+)"/.exec(html)?.[1] ?? null;
}

/** The page's unsaved flag: a PUT since 399830a (fabba2e took a POST: a build of it answers the PUT 405). */
async function markUnsaved(server, documentPath, cookie, pageId, unsaved) {
  for (const method of ["PUT", "POST"]) {
    const response = await fetch(`${server.url}${documentPath}/presence`, {
      method,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: server.url },
      body: new URLSearchParams({ page: pageId, unsaved: String(unsaved) }),
    });
    if (response.status === 204) return;
    if (response.status !== 405) throw new Error(`${method} …/presence answered ${response.status}: ${await response.text()}`);
  }
  throw new Error("…/presence took neither a PUT nor a POST of the unsaved flag");
}

/** A statement's text in one line, shortened: what the notes and the log show. */
const shortText = (text) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 70 ? `${line.slice(0, 67)}…` : line;
};

/** Waits until what the last work set off is done (SETTLE); answers how long it waited and the full collections meanwhile. */
async function settle(engine, workEnded, maxMs) {
  await sleep(SETTLE.gcAfterMs);
  for (;;) {
    const gcs = (await engine.probe()).majorGcs.filter((gc) => gc.at >= workEnded + SETTLE.gcAfterMs);
    const lastGc = gcs.at(-1)?.at ?? null;
    const now = Date.now();
    if ((lastGc !== null && now - lastGc >= SETTLE.quietAfterGcMs) || now - workEnded >= maxMs) {
      return { ms: now - workEnded, gcs: gcs.map((gc) => `${((gc.at - workEnded) / 1000).toFixed(1)} s: ${gc.ms.toFixed(0)} ms`) };
    }
    await sleep(500);
  }
}

/** Server CPU (% of one core: Node, and PostgreSQL's processes for its database) and statements run over `seconds`. */
async function idleWindow(engine, seconds) {
  const { server } = engine;
  const probeBefore = await engine.probe();
  const statementsBefore = await engine.statements(probeBefore);
  const postgres = samplePostgresCpu(server.postgresDatabases);
  const cpuBefore = server.cpuMs();
  const started = performance.now();
  const startedAt = Date.now();
  // Node's CPU second by second: where in the window it went (the keep-alive rounds, the renewal…).
  const cpuPerSecond = [];
  let last = cpuBefore;
  for (let second = 1; second <= seconds; second++) {
    await sleep(started + second * 1000 - performance.now());
    const now = server.cpuMs();
    cpuPerSecond.push(now - last);
    last = now;
  }
  const cpuAfter = server.cpuMs();
  const elapsedMs = performance.now() - started;
  const postgresMs = postgres.stop();
  const probeAfter = await engine.probe();
  const ran = statementsBetween(statementsBefore, await engine.statements(probeAfter));
  const gcs = probeAfter.majorGcs.filter((gc) => gc.at >= startedAt);
  const total = ran.reduce((sum, [, times]) => sum + times, 0);
  const presence = ran.filter(([text]) => PRESENCE_STATEMENT.test(text)).reduce((sum, [, times]) => sum + times, 0);
  const nodePercent = ((cpuAfter - cpuBefore) / elapsedMs) * 100;
  const postgresPercent = postgresMs === null ? null : (postgresMs / elapsedMs) * 100;
  return {
    seconds: elapsedMs / 1000,
    nodePercent,
    postgresPercent,
    cpuPercent: nodePercent + (postgresPercent ?? 0),
    ran,
    total,
    perSecond: total / (elapsedMs / 1000),
    presence,
    cpuPerSecond,
    gcs,
    startedAt: started,
  };
}

function logWindow(engine, label, window) {
  const cpu = `${window.cpuPercent.toFixed(3)} % of a core${window.postgresPercent === null ? "" : ` (node ${window.nodePercent.toFixed(3)} + postgres ${window.postgresPercent.toFixed(3)})`}`;
  engine.log(`${label}: ${window.seconds.toFixed(1)} s, ${cpu}, ${window.total} statements (${window.perSecond.toFixed(3)}/s)`);
  engine.log(`    node CPU ms per second: ${window.cpuPerSecond.map((ms) => Math.round(ms)).join(" ")}`);
  engine.log(`    full collections: ${window.gcs.length} (${window.gcs.map((gc) => `${gc.ms.toFixed(0)} ms`).join(", ") || "none"})`);
  for (const [text, times] of window.ran.slice(0, 8)) engine.log(`    ${String(times).padStart(5)} × ${shortText(text)}`);
}

/** The statements of a window as a note: "60 × SELECT … FROM jobs …; …". */
const ranNote = (window, count = 4) =>
  window.ran
    .slice(0, count)
    .map(([text, times]) => `${times} × ${shortText(text).slice(0, 40)}`)
    .join("; ");

async function measure(ctx, engine) {
  const { server } = engine;
  const cookie = await ctx.signIn(server);
  const colleague = await signInAs(server, COLLEAGUE);
  const saveUrl = `${server.url}/api/v1/buckets/${BENCH_BUCKET.slug}/save`;
  const saved = await fetch(saveUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie, Origin: server.url },
    body: JSON.stringify({ content: benchDocument(1), collection: BENCH_BUCKET.collectionName }),
  });
  if (saved.status !== 201) throw new Error(`POST ${saveUrl} answered ${saved.status}: ${await saved.text()}`);
  const { contentId } = await saved.json();
  const documentPath = `/b/${BENCH_BUCKET.slug}/${contentId}`;
  const editPath = `${documentPath}/latest`;
  const firstPage = await openEditPage(server, editPath, cookie);
  if (!firstPage) {
    engine.log("skipped: this build's edit page has no presence (data-presence-page)");
    return [];
  }

  const openStarted = performance.now();
  const streams = [];
  try {
    for (let opened = 0; opened < PAGES; opened += OPEN_AT_ONCE) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(OPEN_AT_ONCE, PAGES - opened) }, async (_, i) => {
          const pageId = opened + i === 0 ? firstPage : await openEditPage(server, editPath, cookie);
          const stream = await openStream(`${server.url}${documentPath}/presence?page=${pageId}`, cookie);
          await stream.next("editors");
          return stream;
        }),
      );
      streams.push(...batch);
    }
    const openMs = performance.now() - openStarted;
    engine.log(`${PAGES} edit pages and their streams opened in ${(openMs / 1000).toFixed(1)} s (${OPEN_AT_ONCE} at a time)`);

    const settledOpen = await settle(engine, Date.now(), SETTLE.maxMs.opening);
    engine.log(`settled in ${(settledOpen.ms / 1000).toFixed(1)} s (full collections at ${settledOpen.gcs.join(", ") || "none"})`);
    const idle = await idleWindow(engine, IDLE_S);
    logWindow(engine, `${PAGES} pages open, nobody typing`, idle);
    const keepalives = streams[0].comments.filter((at) => at >= idle.startedAt && at <= idle.startedAt + idle.seconds * 1000);
    engine.log(
      `    keep-alive comments (first stream) at second ${keepalives.map((at) => ((at - idle.startedAt) / 1000).toFixed(1)).join(", ")}`,
    );

    // A change: the colleague opens the document (every page is told), then marks it unsaved and saved, in turn.
    const told = async (matches, act) => {
      const from = streams.map((stream) => stream.events.length);
      const countsBefore = await engine.statements(await engine.probe());
      const cpuBefore = server.cpuMs();
      const postgres = samplePostgresCpu(server.postgresDatabases);
      const started = performance.now();
      await act();
      const arrived = await Promise.all(streams.map((stream, i) => stream.next("editors", matches, from[i])));
      const ms = Math.max(...arrived.map((event) => event.at)) - started;
      // What follows the last page's event (nothing should) is counted too: a short wait before the counts.
      await sleep(100);
      const cpuMs = server.cpuMs() - cpuBefore + (postgres.stop() ?? 0);
      const ran = statementsBetween(countsBefore, await engine.statements(await engine.probe()));
      return { ms, cpuMs, statements: ran.reduce((sum, [, times]) => sum + times, 0), ran };
    };
    const colleagueIsHere = (unsaved) => (others) => others.some((editor) => editor.name === COLLEAGUE.name && editor.unsaved === unsaved);
    let colleaguePage = null;
    const arrival = await told(colleagueIsHere(false), async () => {
      colleaguePage = await openEditPage(server, editPath, colleague);
    });
    engine.log(
      `the colleague opens the document: all ${PAGES} pages told in ${arrival.ms.toFixed(0)} ms, ${arrival.statements} statements`,
    );
    const changes = [];
    for (let i = 0; i < CHANGES; i++) {
      const unsaved = i % 2 === 0;
      changes.push(await told(colleagueIsHere(unsaved), () => markUnsaved(server, documentPath, colleague, colleaguePage, unsaved)));
    }
    const changeMs = median(changes.map((change) => change.ms));
    const changeStatements = median(changes.map((change) => change.statements));
    const changeCpuMs = median(changes.map((change) => change.cpuMs));
    engine.log(
      `${CHANGES} changes (unsaved, saved, …): ${changes.map((change) => change.ms.toFixed(0)).join(", ")} ms; statements ${changes.map((change) => change.statements).join(", ")}`,
    );
    for (const [text, times] of changes[0].ran) engine.log(`    ${String(times).padStart(5)} × ${shortText(text)}`);

    // The same server with no page open, as warm as it was with them (right after its start it is busier).
    for (const stream of streams) stream.close();
    const settledClose = await settle(engine, Date.now(), SETTLE.maxMs.closing);
    engine.log(`settled in ${(settledClose.ms / 1000).toFixed(1)} s (full collections at ${settledClose.gcs.join(", ") || "none"})`);
    const quiet = await idleWindow(engine, QUIET_S);
    logWindow(engine, "no page open (after the pages closed)", quiet);

    const name = engine.name;
    const addedCpu = idle.cpuPercent - quiet.cpuPercent;
    const addedStatements = idle.perSecond - quiet.perSecond;
    const split = (window) =>
      window.postgresPercent === null ? "" : ` (node ${window.nodePercent.toFixed(3)} + postgres ${window.postgresPercent.toFixed(3)})`;
    return [
      {
        name: `idle server CPU, ${PAGES} edit pages open, nobody typing (${name})`,
        value: idle.cpuPercent,
        unit: "% of a core",
        baseline: { label: "no page open", value: quiet.cpuPercent, as: "times" },
        budget: `<= ${MAX_ADDED_CPU_PERCENT} % of a core above no page open`,
        pass: addedCpu <= MAX_ADDED_CPU_PERCENT,
        note: `${addedCpu >= 0 ? "+" : ""}${addedCpu.toFixed(3)} % of a core; ${idle.seconds.toFixed(0)} s with the pages${split(idle)}, ${quiet.seconds.toFixed(0)} s without${split(quiet)}; full collections in them ${idle.gcs.length} and ${quiet.gcs.length}; the ${PAGES} pages opened in ${(openMs / 1000).toFixed(1)} s`,
      },
      {
        name: `idle statements per second, ${PAGES} edit pages open (${name})`,
        value: idle.perSecond,
        unit: "/s",
        baseline: { label: "no page open", value: quiet.perSecond, as: "times" },
        budget: `<= ${MAX_ADDED_STATEMENTS_PER_S}/s above no page open`,
        pass: addedStatements <= MAX_ADDED_STATEMENTS_PER_S,
        note: `${addedStatements >= 0 ? "+" : ""}${addedStatements.toFixed(3)}/s; on the presence table ${idle.presence} in ${idle.seconds.toFixed(0)} s; with the pages: ${ranNote(idle)}; without: ${ranNote(quiet)}`,
      },
      {
        name: `one presence change told to ${PAGES} open pages (${name})`,
        value: changeMs,
        unit: "ms",
        budget: `< ${MAX_TELL_MS} ms`,
        pass: changeMs < MAX_TELL_MS,
        note: `median of ${CHANGES} (unsaved / saved in turn), max ${Math.max(...changes.map((change) => change.ms)).toFixed(0)} ms; PUT to the last page's event; per change ${changeStatements} statements, server CPU ${changeCpuMs.toFixed(0)} ms; the colleague's arrival ${arrival.ms.toFixed(0)} ms`,
      },
    ];
  } finally {
    for (const stream of streams) stream.close();
  }
}

/** A server on PGlite whose statements are counted inside it. */
async function pgliteEngine(ctx) {
  const name = "presence-pglite";
  const dataDir = copyDataDir(ctx, name);
  await withPglite(dataDir, async (query) => {
    await insertBucket(query, BENCH_BUCKET);
    await insertColleague(query);
  });
  const probe = serverProbe(ctx.tmpDir, name, { pglite: true });
  const server = await ctx.startServer({ dataDir, env: { ...ENV, ...probe.env }, nodeArgs: probe.nodeArgs, profileName: name });
  return {
    name: "PGlite",
    server,
    probe: () => probe.read(server),
    statements: async (probed) => probed.statements,
    log: (message) => ctx.log(`PGlite: ${message}`),
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A server on a fresh PostgreSQL database, through the counting proxy. */
async function postgresEngine(ctx, adminUrl) {
  const target = new URL(adminUrl);
  const proxy = await startPgProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const database = await createPostgresDatabase(adminUrl);
  const viaProxy = new URL(database.url);
  viaProxy.hostname = "127.0.0.1";
  viaProxy.port = String(proxy.port);
  const dataDir = path.join(ctx.tmpDir, "presence-postgres");
  const probe = serverProbe(ctx.tmpDir, "presence-postgres");
  mkdirSync(dataDir, { recursive: true });
  let server = null;
  const stop = async () => {
    await server?.stop();
    await proxy.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    server = await ctx.startServer({
      dataDir,
      env: { ...ENV, ...probe.env, DATABASE_URL: viaProxy.toString() },
      nodeArgs: probe.nodeArgs,
      profileName: "presence-postgres",
    });
    await withPostgres(database.url, async (query) => {
      await insertBucket(query, BENCH_BUCKET);
      await insertColleague(query);
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    name: "PostgreSQL",
    server,
    probe: () => probe.read(server),
    statements: async () => proxy.statements(),
    log: (message) => ctx.log(`PostgreSQL: ${message}`),
    stop,
  };
}

export async function presence(ctx) {
  const adminUrl = postgresAdminUrl();
  if (!adminUrl) ctx.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure it)");
  const starts = [pgliteEngine(ctx), ...(adminUrl ? [postgresEngine(ctx, adminUrl)] : [])];
  const engines = await Promise.allSettled(starts);
  try {
    const failedStart = engines.find((engine) => engine.status === "rejected");
    if (failedStart) throw failedStart.reason;
    const measured = await Promise.allSettled(engines.map((engine) => measure(ctx, engine.value)));
    const failed = measured.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    return measured.flatMap((result) => result.value);
  } finally {
    for (const engine of engines) if (engine.status === "fulfilled") await engine.value.stop();
  }
}
