import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, inject } from "vitest";
import { exited, startProcess } from "@tests/support/media-server";
import { TEST_SESSION_SECRET } from "@tests/support/server";

/*
 * Stopping a server (`npm start`, a real process) with SIGTERM, as a rolling deploy does (docs/operations.md,
 * "Stopping a server"): /readyz answers 503 while the server still serves (SHUTDOWN_DELAY_MS), then it accepts no
 * connection, answers the request in flight in full, and exits with 0. PGlite: what is tested is the process.
 */

const ADMIN = { email: "stopping-admin@example.test", password: "a-password-for-stopping" };
const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
});

/** A sign-in whose headers the server has (it answered 100 Continue) and whose body is sent only by `finish`. */
function signInInFlight(url: string) {
  const body = JSON.stringify(ADMIN);
  const sent = request(`${url}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Expect: "100-continue" },
  });
  const answered = new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
    sent.once("error", reject);
    sent.once("response", (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.once("end", () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, text }));
    });
  });
  answered.catch(() => undefined); // read by finish(), where a failure fails the test
  const continued = new Promise<void>((resolve) => sent.once("continue", () => resolve()));
  sent.flushHeaders();
  return {
    continued,
    finish() {
      sent.end(body);
      return answered;
    },
  };
}

const readiness = (url: string) =>
  fetch(`${url}/readyz`).then(
    async (response) => `${response.status} ${((await response.json()) as { status: string }).status}`,
    () => "refused",
  );

const answerOf = (url: string) =>
  fetch(url).then(
    (response) => response.status,
    () => "refused" as const,
  );

describe("a server stopped with SIGTERM", () => {
  it("turns /readyz to 503 while it still serves, then refuses connections, answers the request in flight and exits 0", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "vitrine-stopping-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    cpSync(inject("pgliteTemplate"), path.join(dataDir, "pgdata"), { recursive: true });
    const server = await startProcess(
      {
        DATA_DIR: dataDir,
        PORT: "0",
        HOST: "127.0.0.1",
        SESSION_SECRET: TEST_SESSION_SECRET,
        LOG_LEVEL: "info",
        MEDIA_WORKERS: "0",
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        SHUTDOWN_DELAY_MS: "5000",
        SHUTDOWN_GRACE_MS: "30000",
      },
      90_000,
    );
    cleanups.push(() => server.child.kill("SIGKILL"));
    const ready = await fetch(`${server.url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: "ready" }]);

    const inFlight = signInInFlight(server.url);
    await inFlight.continued;
    server.child.kill("SIGTERM");
    // Not ready, and still serving: a load balancer sees the 503 and sends it nothing more.
    await expect.poll(() => readiness(server.url), { timeout: 10_000, interval: 50 }).toBe("503 stopping");
    // Then no new connection.
    await expect.poll(() => answerOf(`${server.url}/healthz`), { timeout: 15_000, interval: 50 }).toBe("refused");
    expect(server.child.exitCode, "the request in flight keeps the server up").toBeNull();

    const answer = await inFlight.finish();
    expect(answer.status).toBe(200);
    expect(answer.connection).toBe("close");
    await exited(server.child);
    expect(server.child.exitCode).toBe(0);
    expect(server.output()).toContain('"msg":"stopping"');
    expect(server.output()).not.toContain("cut off");
  });
});
