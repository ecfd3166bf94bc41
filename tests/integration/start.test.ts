import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readStoredFingerprint, sourceFingerprint, writeStoredFingerprint } from "../../scripts/production-build.mjs";
import { signIn } from "@tests/support/http";

/*
 * `npm start` as a new user runs it: a real `node scripts/start.mjs` on an empty data folder, with its own build
 * folder (a copy of the suite's build, marked as made from older sources) so the shared ./build is only ever read.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const SHARED_BUILD = path.join(ROOT, process.env.VITRINE_BUILD_DIR ?? "build");
// Inside the repository, so the server bundle finds node_modules; build-*/ is ignored by git and by the fingerprint.
const BUILD_DIR = path.join(ROOT, `build-start-test-${randomBytes(4).toString("hex")}`);
const RULE = /^─{20,}$/gm;
const BLOCK_DEADLINE_MS = 150_000;

let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  if (!existsSync(path.join(SHARED_BUILD, "server", "index.js"))) throw new Error(`no build in ${SHARED_BUILD}: run npm run build first`);
  cpSync(SHARED_BUILD, BUILD_DIR, { recursive: true });
  writeStoredFingerprint(BUILD_DIR, "0".repeat(64));
  dataDir = mkdtempSync(path.join(tmpdir(), "vitrine-start-"));
});

afterAll(async () => {
  await Promise.all(children.map(stop));
  rmSync(BUILD_DIR, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** The environment of someone who just cloned the repository: none of Vitrine's variables set. */
function newUserEnv(): NodeJS.ProcessEnv {
  const unset = /^(ADMIN_|DATABASE_URL$|PUBLIC_URL$|SESSION_SECRET$|LOG_LEVEL$|NODE_ENV$|VITEST|TEST_)/;
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !unset.test(name)));
  return { ...env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", VITRINE_BUILD_DIR: path.relative(ROOT, BUILD_DIR) };
}

interface Started {
  child: ChildProcess;
  /** stdout up to and including the block's closing rule. */
  startOutput: string;
  stdout: () => string;
  stderr: () => string;
}

/** Runs npm start's script and resolves once its closing block (between two rules) has been printed. */
function start(): Promise<Started> {
  const child = spawn(process.execPath, ["scripts/start.mjs"], { cwd: ROOT, env: newUserEnv(), stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no closing block within ${BLOCK_DEADLINE_MS / 1000} s:\n${stdout}${stderr}`)),
      BLOCK_DEADLINE_MS,
    );
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      const rules = [...stdout.matchAll(RULE)];
      if (rules.length >= 2) {
        clearTimeout(timer);
        const end = rules[1]!.index + rules[1]![0].length;
        resolve({ child, startOutput: stdout.slice(0, end), stdout: () => stdout, stderr: () => stderr });
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${signal ?? code}):\n${stdout}${stderr}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

/** The block: the lines between the two rules, without their indentation. */
function blockOf(output: string): string[] {
  const [first, second] = [...output.matchAll(RULE)];
  return output
    .slice(first!.index + first![0].length, second!.index)
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

const isJsonLog = (line: string) => line.startsWith("{") && "level" in (JSON.parse(line) as object);

describe.skipIf(process.env.VITRINE_TEST_DB === "postgres")("npm start", { timeout: BLOCK_DEADLINE_MS + 30_000 }, () => {
  it("rebuilds a build older than the sources, quietly, and the first start ends with the URL and the admin's credentials", async () => {
    const builtBefore = statSync(path.join(BUILD_DIR, "server", "index.js")).mtimeMs;
    const started = await start();

    const beforeBlock = started.startOutput.slice(0, started.startOutput.search(RULE)).split("\n").filter(Boolean);
    const ownLines = beforeBlock.filter((line) => !isJsonLog(line));
    expect(ownLines[0]).toBe("Building Vitrine (the sources changed since the last build)…");
    expect(ownLines[1]).toMatch(
      /^Built in \d+\.\d s \(client \d+ modules, server \d+ modules\) into build-start-test-\w+\/\. Assets precompressed: \d+ kB → \d+ kB brotli\.$/,
    );
    expect(ownLines).toHaveLength(2);
    expect(started.stderr()).toBe("");
    // Everything the start logs comes before the block.
    expect(beforeBlock.some((line) => line.includes('"msg":"Vitrine is listening"'))).toBe(true);

    expect(statSync(path.join(BUILD_DIR, "server", "index.js")).mtimeMs).toBeGreaterThan(builtBefore);
    expect(readStoredFingerprint(BUILD_DIR)).toBe(sourceFingerprint());

    const block = blockOf(started.startOutput);
    const url = /^Vitrine is running at (http:\/\/127\.0\.0\.1:\d+)$/.exec(block[0]!)?.[1];
    expect(url, block.join("\n")).toBeDefined();
    expect(block).toContain(`Sign in at ${url}/login with the admin account created now:`);
    const email = /^email\s+(\S+@\S+)$/m.exec(block.join("\n"))?.[1];
    const password = /^password\s+(\S+)$/m.exec(block.join("\n"))?.[1];
    expect(email).toBe("admin@vitrine.local");
    expect(password).toMatch(/^[\w-]{16}$/);
    expect(block.join("\n")).toContain("shown this once");

    // The printed credentials are the real ones.
    const cookie = await signIn(url!, email!, password);
    expect(cookie).toMatch(/=/);
    // The demo's videos were transcoded before the block (ffmpeg is part of the suite): every case shows its still.
    const cases = (await (
      await fetch(`${url}/api/v1/buckets/any/content?collection=cases&populate=true`, { headers: { cookie } })
    ).json()) as Array<{ thumbnail?: { status?: string } }>;
    expect(cases.length).toBeGreaterThan(0);
    expect(cases.map((item) => item.thumbnail?.status)).toEqual(cases.map(() => "completed"));
    // After the block come only the logs of the requests just made.
    const afterBlock = started.stdout().slice(started.startOutput.length).split("\n").filter(Boolean);
    expect(
      afterBlock.every((line) => isJsonLog(line) && line.includes('"msg":"request"')),
      afterBlock.join("\n"),
    ).toBe(true);

    expect(await stop(started.child)).toBe(0);
  });

  it("serves an unchanged tree without building, and a later start says how to sign in without showing a password", async () => {
    const builtBefore = statSync(path.join(BUILD_DIR, "server", "index.js")).mtimeMs;
    const started = await start();

    const beforeBlock = started.startOutput.slice(0, started.startOutput.search(RULE)).split("\n").filter(Boolean);
    expect(beforeBlock.filter((line) => !isJsonLog(line))).toEqual([]);
    expect(started.stderr()).toBe("");
    expect(statSync(path.join(BUILD_DIR, "server", "index.js")).mtimeMs).toBe(builtBefore);

    const block = blockOf(started.startOutput);
    const url = /^Vitrine is running at (http:\/\/127\.0\.0\.1:\d+)$/.exec(block[0]!)?.[1];
    expect(block).toContain(`Sign in at ${url}/login with your account.`);
    expect(block.join("\n")).not.toMatch(/^password/m);
    expect(block.join("\n")).toContain("npm run vitrine -- reset-password");

    expect(await stop(started.child)).toBe(0);
  });
});
