import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
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

/** A server process on a copy of the migrated template, seeded with the demo and its admin on its first start. */
async function startStoppable() {
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
  return { server, dataDir };
}

/** A file upload whose first half is sent now and whose second half is sent by `finish`. */
function uploadInFlight(url: string, cookie: string, bytes: Buffer) {
  const boundary = "stopping-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="bucket"\r\n\r\nexhibitions\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="catalogue.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const sent = request(`${url}/api/v1/media/file/upload`, {
    method: "POST",
    headers: {
      Cookie: cookie,
      Origin: url,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": head.length + bytes.length + tail.length,
    },
  });
  const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
    sent.once("error", reject);
    sent.once("response", (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.once("end", () => resolve({ status: response.statusCode ?? 0, text }));
    });
  });
  answered.catch(() => undefined); // read by finish(), where a failure fails the test
  const half = Math.floor(bytes.length / 2);
  sent.write(Buffer.concat([head, bytes.subarray(0, half)]));
  return {
    finish() {
      sent.end(Buffer.concat([bytes.subarray(half), tail]));
      return answered;
    },
  };
}

describe("a server stopped with SIGTERM", () => {
  it("finishes an upload in flight: the file is stored whole, then its temporary folder goes with it", async () => {
    const { server, dataDir } = await startStoppable();
    const login = await fetch(`${server.url}/auth/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify(ADMIN),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    // A text file (the file field takes it by content), large enough to be written in several chunks.
    const bytes = Buffer.alloc(4 * 1024 * 1024, "catalogue of the exhibition\n");
    const upload = uploadInFlight(server.url, cookie, bytes);
    const tmpRoot = path.join(dataDir, "media", "tmp");
    // The server is writing the first half into its temporary folder.
    await expect
      .poll(() => readdirSync(tmpRoot).flatMap((dir) => readdirSync(path.join(tmpRoot, dir))).length, { timeout: 10_000 })
      .toBe(1);
    server.child.kill("SIGTERM");
    await expect.poll(() => answerOf(`${server.url}/healthz`), { timeout: 15_000, interval: 50 }).toBe("refused");

    const answer = await upload.finish();
    expect(answer.status, answer.text).toBe(200);
    const [stored] = JSON.parse(answer.text) as Array<{ size: number }>;
    expect(stored?.size).toBe(bytes.length);
    await exited(server.child);
    expect(server.child.exitCode).toBe(0);
    expect(
      readdirSync(path.join(dataDir, "media", "files")).map((name) => statSync(path.join(dataDir, "media", "files", name)).size),
    ).toContain(bytes.length);
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  it("turns /readyz to 503 while it still serves, then refuses connections, answers the request in flight and exits 0", async () => {
    const { server } = await startStoppable();
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
