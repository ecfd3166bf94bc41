#!/usr/bin/env node
// npm run bench: builds the production server into build-bench/, then runs each
// section of bench/sections/index.mjs against it and prints a table of figures
// next to their budgets. A missed budget is reported, not fatal (exit 0); a
// server that cannot start or a failed build exits 1.
//
//   npm run bench                       everything
//   npm run bench -- --skip-build       reuse build-bench/ when it exists
//   npm run bench -- --only=pages       only the named sections (comma-separated)
//   npm run bench -- --profile          every server runs with --cpu-prof; profiles land in
//                                       build-bench/profiles/ (read them with bench/profile-top.mjs)
//   npm run bench -- --compare=REV      also builds REV (a commit, branch or tag) and runs each section on it
//                                       right before this tree's build, printing before → after per row
//   npm run bench -- --compare=REV --after-first
//                                       the same, this tree's build first: a difference that turns round with the
//                                       order is the machine's (a database or disk that slows as a run goes on)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { measureLoad } from "./lib/load.mjs";
import { otherLoadNow } from "./lib/machine.mjs";
import { printComparison, printRow, printTable } from "./lib/report.mjs";
import { ServerStartError, startServer } from "./lib/server.mjs";
import { sections } from "./sections/index.mjs";
import { buildProduction } from "../scripts/production-build.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUILD_DIR = "build-bench";
const ADMIN_EMAIL = "bench-admin@vitrine.local";
const ADMIN_PASSWORD = "bench-password-not-secret";

const args = process.argv.slice(2);
const skipBuild = args.includes("--skip-build");
const only = args
  .find((arg) => arg.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const profileDir = args.includes("--profile") ? path.join(ROOT, BUILD_DIR, "profiles") : null;
const compareRev = args.find((arg) => arg.startsWith("--compare="))?.slice("--compare=".length) || null;
const afterFirst = args.includes("--after-first");

function log(message) {
  console.log(message);
}

function build() {
  const serverEntry = path.join(ROOT, BUILD_DIR, "server", "index.js");
  if (skipBuild && existsSync(serverEntry)) {
    log(`Build: reusing ${BUILD_DIR}/ (--skip-build)`);
    return;
  }
  // The production build as `npm run build` makes it: precompressed assets included (what a browser is sent).
  log(`Build: the production build into ${BUILD_DIR}/ …`);
  const result = buildProduction(path.join(ROOT, BUILD_DIR), ROOT);
  if (!result.ok) {
    console.error(result.output.trim());
    throw new ServerStartError(`the production build failed: ${result.summary}`);
  }
  log(`Build: ${result.summary}`);
}

/** The environment of every server the benchmark starts. */
const BENCH_SESSION_SECRET = "a-benchmark-session-secret-of-32-characters-or-more";

function serverEnv(dataDir, overrides = {}) {
  const env = { ...process.env };
  // The embedded database unless a section asks for PostgreSQL explicitly.
  delete env.DATABASE_URL;
  delete env.PUBLIC_URL;
  delete env.SESSION_SECRET;
  return {
    ...env,
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOG_LEVEL: "warn",
    VITRINE_BUILD_DIR: BUILD_DIR,
    // A server on PostgreSQL needs the secret from its environment (server/config.ts checkServerConfig).
    ...(overrides.DATABASE_URL ? { SESSION_SECRET: BENCH_SESSION_SECRET } : {}),
    ...overrides,
  };
}

function machineLine() {
  const cpu = os.cpus()[0]?.model?.trim() ?? "unknown CPU";
  let commit = "";
  const git = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" });
  if (git.status === 0) commit = `, commit ${git.stdout.trim()}`;
  const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  return `Vitrine ${version}${commit} · Node ${process.version} · ${os.cpus().length} cores (${cpu}) · ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`;
}

/** Other work on this small machine skews every figure: say so next to them. */
async function warnWhenBusy() {
  const cores = await otherLoadNow(500);
  if (cores !== null && cores > 0.2) {
    log(`  ! other processes keep ${cores.toFixed(1)} of ${os.cpus().length} cores busy: figures will be low; rerun on an idle machine`);
    busyWarnings += 1;
  }
}
let busyWarnings = 0;

/**
 * --compare=REV: REV's sources (git archive, so the repository's worktrees and branches are left alone) in a
 * temporary folder beside node_modules, built like ours. Answers its root.
 */
function prepareComparison(rev, tmp) {
  const root = path.join(tmp, "compare-src");
  mkdirSync(root, { recursive: true });
  const archive = spawnSync("sh", ["-c", `git archive --format=tar "$1" | tar -x -C "$2"`, "sh", rev, root], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (archive.status !== 0) throw new ServerStartError(`git archive ${rev} failed: ${archive.stderr}`);
  symlinkSync(realpathSync(path.join(ROOT, "node_modules")), path.join(root, "node_modules"));
  log(`Build of ${rev}: the production build into ${path.relative(ROOT, path.join(root, BUILD_DIR))} …`);
  const result = buildProduction(path.join(root, BUILD_DIR), root);
  if (!result.ok) {
    console.error(result.output.trim());
    throw new ServerStartError(`the production build of ${rev} failed: ${result.summary}`);
  }
  log(`Build of ${rev}: ${result.summary}`);
  return root;
}

async function main() {
  log(`Vitrine benchmark — ${machineLine()}`);
  build();

  const tmp = mkdtempSync(path.join(os.tmpdir(), "vitrine-bench-"));
  const running = new Set();
  // What is measured: this tree's build, and with --compare=REV that revision's first ("before").
  const builds = [{ label: compareRev ? "after" : null, root: ROOT }];
  if (compareRev) builds[afterFirst ? "push" : "unshift"]({ label: "before", root: prepareComparison(compareRev, tmp) });

  /**
   * What a section gets (one per build measured):
   *   root, buildDir                 the server's sources and build (REV's with --compare)
   *   benchRoot                      this tree: bench/ and its baselines
   *   dataDir, adminEmail, adminPassword, tmpDir, skipBuild
   *   env(overrides)                 the environment servers start with
   *   startServer({ env, dataDir, nodeArgs, profileName })  a new server (stopped at the end if the section
   *                                  does not); with --profile its CPU profile is written on stop
   *   startProcess({ script, env })  a baseline server (bench/baselines/), measured like ours
   *   sharedServer()                 one long-lived server on the prepared data dir, started on first use
   *                                  and stopped after the section
   *   signIn(server)                 the admin's session cookie ("name=value")
   *   measureLoad(options)           autocannon: { requestsPerSecond, p50, p99, non2xx, … }
   *   log(message)
   */
  const makeContext = ({ label, root }) => {
    const tmpDir = label ? path.join(tmp, label) : tmp;
    const dataDir = path.join(tmpDir, "data");
    mkdirSync(tmpDir, { recursive: true });
    let shared = null;
    const ctx = {
      label,
      root,
      benchRoot: ROOT,
      buildDir: BUILD_DIR,
      dataDir,
      tmpDir,
      skipBuild,
      adminEmail: ADMIN_EMAIL,
      adminPassword: ADMIN_PASSWORD,
      env: (overrides) => serverEnv(dataDir, overrides),
      async startServer({ env = {}, dataDir: dir = dataDir, nodeArgs = [], profileName } = {}) {
        const profileArgs = profileDir
          ? [
              "--cpu-prof",
              `--cpu-prof-dir=${profileDir}`,
              `--cpu-prof-name=${label ? `${label}-` : ""}${profileName ?? "server"}-${Date.now()}.cpuprofile`,
            ]
          : [];
        const server = await startServer({ root, env: serverEnv(dir, env), nodeArgs: [...profileArgs, ...nodeArgs] });
        running.add(server);
        server.child.once("exit", (code, signal) => {
          running.delete(server);
          if (!server.stopping) {
            console.error(
              `  ! the server on port ${server.port} exited unexpectedly (code ${code}, signal ${signal}):\n${server.output().trim()}`,
            );
          }
        });
        return server;
      },
      /** A baseline server (bench/baselines/): `script` is node's arguments, `env` the whole environment. */
      async startProcess({ script, env }) {
        const server = await startServer({ root: ROOT, env, script });
        running.add(server);
        server.child.once("exit", () => running.delete(server));
        return server;
      },
      async sharedServer() {
        shared ??= ctx.startServer();
        return shared;
      },
      async stopSharedServer() {
        const server = await shared?.catch(() => null);
        shared = null;
        await server?.stop();
      },
      async signIn(server) {
        const response = await fetch(`${server.url}/auth/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
        });
        if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
        const cookie = response.headers.get("set-cookie")?.split(";")[0];
        if (!cookie) throw new Error("sign-in answered no session cookie");
        return cookie;
      },
      measureLoad,
      profiling: profileDir !== null,
      log: (message) => log(`  · ${label ? `[${label}] ` : ""}${message}`),
    };
    return ctx;
  };
  const contexts = builds.map(makeContext);

  const cleanup = async () => {
    await Promise.all([...running].map((server) => server.stop()));
    rmSync(tmp, { recursive: true, force: true });
  };

  const results = [];
  const benchStarted = performance.now();
  try {
    // The data dir every section starts from: migrated and seeded (admin and demo buckets) once per build.
    for (const ctx of contexts) {
      log(`\nPreparing a data dir${ctx.label ? ` for ${ctx.label}` : ""} (first start: migrations and demo content) …`);
      const first = await ctx.startServer();
      log(`  · first start on an empty data dir: ${(first.readyMs / 1000).toFixed(2)} s`);
      await first.stop();
    }

    for (const section of sections) {
      if (only && !only.includes(section.name)) continue;
      log(`\n== ${section.title} ==`);
      await warnWhenBusy();
      const entry = { section: section.name, rows: [], before: null, error: null, seconds: 0 };
      results.push(entry);
      const started = performance.now();
      // With --compare, each section runs on the before build, then on the after build (interleaved by section;
      // --after-first turns the order round).
      for (const ctx of contexts) {
        let rows = [];
        try {
          rows = await section.run(ctx);
        } catch (error) {
          if (error instanceof ServerStartError) throw error;
          entry.error = error;
          console.error(
            `  section ${section.name}${ctx.label ? ` (${ctx.label})` : ""} failed: ${error instanceof Error ? error.stack : error}`,
          );
        } finally {
          await ctx.stopSharedServer();
        }
        if (ctx.label === "before") entry.before = rows;
        else entry.rows = rows;
        if (ctx.label) log(`  -- ${ctx.label} --`);
        for (const row of rows) printRow(row);
      }
      entry.seconds = (performance.now() - started) / 1000;
      if (entry.before) printComparison(entry.before, entry.rows);
      log(`  (section ${section.name}: ${entry.seconds.toFixed(0)} s)`);
    }
  } finally {
    await cleanup();
  }

  log("\n== Summary ==");
  printTable(results, compareRev ? { before: compareRev } : undefined);
  log(
    `\nTime per section: ${results.map((result) => `${result.section} ${result.seconds.toFixed(0)} s`).join(", ")}; whole run ${((performance.now() - benchStarted) / 60_000).toFixed(1)} min.`,
  );
  const rows = results.flatMap((result) => result.rows);
  const missed = rows.filter((row) => row.pass === false).length;
  const met = rows.filter((row) => row.pass === true).length;
  const failedSections = results.filter((result) => result.error).length;
  log(`\n${met} budgets met, ${missed} missed${failedSections ? `, ${failedSections} section(s) failed` : ""}.`);
  if (busyWarnings)
    log("Other processes were running during the benchmark (see the warnings above): rerun on an idle machine before trusting a MISS.");
}

try {
  await main();
  process.exit(0);
} catch (error) {
  if (error instanceof ServerStartError) {
    console.error(`\nThe server could not start: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
