import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@server/db/client";
import type { RunningServer } from "@server/app";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";
import { startTcpProxy, type TcpProxy } from "@tests/support/tcp-proxy";
import { get } from "@tests/support/http";
import { createTestBucket, errorPage, page, signedInUser, startBuiltServer } from "@tests/support/fixtures";
import { deliver, deliveryClient } from "@tests/support/delivery";

/*
 * A lost PostgreSQL connection (spec: the pg pool handles connection errors
 * without crashing; a lost database answers 503 and recovers when it returns).
 * A TCP proxy stands between the server and PostgreSQL so the test can take
 * the database away and bring it back.
 */

const DATABASE_UNAVAILABLE = "The database is unavailable. Please try again in a moment.";
const onPostgres = process.env.VITRINE_TEST_DB === "postgres" && Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)("a lost database (PostgreSQL only: PGlite is embedded, there is no connection to lose)", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  /** Fixtures go straight to the database; the server reaches it only through the proxy. */
  let db: Db;
  let server: RunningServer;
  let cookie: string;
  /** An API client's token: the delivery API's GET calls are answered ahead of React Router (server/web/hot-api.ts). */
  let token: string;
  const crashes: unknown[] = [];
  const onCrash = (error: unknown) => crashes.push(error);
  /** What setup started, to stop last first: all of it, or as far as a failed setup got. */
  const stops: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    process.on("uncaughtException", onCrash);
    process.on("unhandledRejection", onCrash);
    database = await createTestDatabase();
    stops.push(() => database.drop());
    const target = new URL(database.databaseUrl!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    stops.push(() => proxy.close());
    const viaProxy = new URL(database.databaseUrl!);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    db = database.db;
    server = await startBuiltServer({ DATA_DIR: database.dataDir, DATABASE_URL: viaProxy.toString() });
    stops.push(() => server.close());
    await createTestBucket(db, { slug: "artworks", name: "Artworks" });
    cookie = (await signedInUser(server.url, db, { name: "Patient Pat" })).cookie;
    token = (await deliveryClient(db, { read: ["artworks"] })).token;
  });
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    process.off("uncaughtException", onCrash);
    process.off("unhandledRejection", onCrash);
  });

  async function expectUnavailable() {
    for (const path of ["/", "/b/artworks", "/profile"]) {
      const { status, html } = await page(server.url, path, cookie);
      expect(status, path).toBe(503);
      expect(errorPage(html), path).toEqual({ status: "503", message: DATABASE_UNAVAILABLE });
    }
    const health = await get(server.url, "/healthz");
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: "error", database: "unavailable" });
    // Readiness too: a load balancer sends it nothing until the database is back.
    const ready = await get(server.url, "/readyz");
    expect([ready.status, await ready.json()]).toEqual([503, { status: "unavailable" }]);
  }

  async function expectAvailable() {
    for (const path of ["/", "/b/artworks", "/profile"]) {
      const { status, html } = await page(server.url, path, cookie);
      expect(status, path).toBe(200);
      expect(html, path).toContain("Patient Pat");
    }
    const health = await get(server.url, "/healthz");
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", database: "ok", databaseKind: "postgres" });
    const ready = await get(server.url, "/readyz");
    expect([ready.status, await ready.json()]).toEqual([200, { status: "ready" }]);
  }

  it("serves pages while the database is there", async () => {
    await expectAvailable();
  });

  it("answers 503 with a clear message when its connections are cut, and recovers without a restart", async () => {
    proxy.cut();
    await expectUnavailable();
    const api = await get(server.url, "/api/v1/buckets/artworks/schema", cookie);
    expect(api.status).toBe(503);
    await api.body?.cancel();
    const delivery = await deliver(server.url, "/api/v1/delivery/buckets", token);
    expect(delivery.status).toBe(503);
    await delivery.body?.cancel();
    await proxy.restore();
    await expectAvailable();
    expect((await deliver(server.url, "/api/v1/delivery/buckets", token)).status).toBe(200);
  });

  it("answers 503 while the database refuses connections, and recovers without a restart", async () => {
    await proxy.refuse();
    await expectUnavailable();
    await proxy.restore();
    await expectAvailable();
  });

  it("does not exhaust its pool: many requests during an outage all answer 503 quickly, and all succeed after it", async () => {
    proxy.cut();
    const started = performance.now();
    const during = await Promise.all(Array.from({ length: 25 }, () => page(server.url, "/", cookie)));
    expect(during.map((response) => response.status)).toEqual(Array(25).fill(503));
    expect(performance.now() - started).toBeLessThan(5000);
    await proxy.restore();
    const after = await Promise.all(Array.from({ length: 25 }, () => page(server.url, "/", cookie)));
    expect(after.map((response) => response.status)).toEqual(Array(25).fill(200));
  });

  it("never crashed the process: no uncaught exception or unhandled rejection", () => {
    expect(crashes).toEqual([]);
  });
});
