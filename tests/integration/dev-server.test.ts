import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, inject, it } from "vitest";
import { TEST_SESSION_SECRET } from "@tests/support/server";

/*
 * `npm run dev` (scripts/dev.mjs): the server through Vite's dev module runner, which runs the sources as they are
 * rather than the build. It once failed at start-up (a package bundled into the server build ran there as CommonJS
 * in an ES module: vite.config.ts). PGlite only: the dev server is the same on either database.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const onPglite = process.env.VITRINE_TEST_DB !== "postgres";
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

it.runIf(onPglite)(
  "starts, and serves the sign-in page and a specialised screen's page rendered from the sources",
  async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "vitrine-dev-"));
    cpSync(inject("pgliteTemplate"), path.join(dataDir, "pgdata"), { recursive: true }); // PGlite's initdb costs seconds
    const child = spawn(process.execPath, ["scripts/dev.mjs"], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "development", DATA_DIR: dataDir, PORT: "0", SESSION_SECRET: TEST_SESSION_SECRET, DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    cleanups.push(() => child.kill("SIGKILL"));

    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const running = /is running at (http:\/\/\S+)/.exec(output);
        if (running?.[1]) resolve(running[1]);
      };
      child.stdout.on("data", read);
      child.stderr.on("data", read);
      child.once("exit", (code) => reject(new Error(`npm run dev exited (${code}) before it listened:\n${output}`)));
    });

    const response = await fetch(`${url}/login`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('name="password"');

    // A specialised screen's route module lives outside app/ (specialised-screens/trend/new.tsx): the dev server
    // renders it and serves it to the browser. The seed's admin signs in with the password it printed.
    const password = /password\s+(\S+)/.exec(output)?.[1] ?? "";
    const signIn = await fetch(`${url}/login`, {
      method: "POST",
      headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "admin@vitrine.local", password }),
      redirect: "manual",
    });
    expect(signIn.status).toBe(302);
    const cookie = signIn.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .join("; ");
    const screenPage = await fetch(`${url}/trend/trends/new`, { headers: { Cookie: cookie } });
    expect(screenPage.status).toBe(200);
    expect(await screenPage.text()).toContain("/specialised-screens/trend/new.tsx");
    expect((await fetch(`${url}/specialised-screens/trend/new.tsx`)).status).toBe(200);
    child.kill("SIGTERM");
    await exited;
  },
  120_000,
);
