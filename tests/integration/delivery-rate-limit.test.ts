import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createTestBucket } from "@tests/support/fixtures";
import { deliver, deliveryClient, expectProblem } from "@tests/support/delivery";
import { startTestServer, type TestServer } from "@tests/support/server";

/* The delivery API's rate limit per client (DELIVERY_RATE_LIMIT_PER_MINUTE; an in-process token bucket). */

let server: TestServer;
let bucket: Bucket;

beforeAll(async () => {
  server = await startTestServer({ env: { DELIVERY_RATE_LIMIT_PER_MINUTE: "3" } });
  bucket = await createTestBucket(server.db);
});
afterAll(() => server.stop());

describe("rate limit", () => {
  it("answers 429 with Retry-After once a client has used its requests, and other clients go on", async () => {
    const { token } = await deliveryClient(server.db, { read: [bucket.slug], origins: ["https://kiosk.example"] });
    const { token: otherToken } = await deliveryClient(server.db, { read: [bucket.slug] });
    const call = (with_: string) =>
      deliver(server.url, `/api/v1/delivery/buckets/${bucket.slug}/documents`, with_, { Origin: "https://kiosk.example" });
    for (let i = 0; i < 3; i += 1) expect((await call(token)).status).toBe(200);
    const refused = await call(token);
    const problem = await expectProblem(refused, 429);
    expect(problem.detail).toContain("3 requests a minute");
    // 3 a minute: one token is back after 20 s at most.
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(20);
    // The app's page can read the refusal and its Retry-After.
    expect(refused.headers.get("access-control-allow-origin")).toBe("https://kiosk.example");
    expect(refused.headers.get("access-control-expose-headers")).toContain("Retry-After");
    expect((await call(otherToken)).status).toBe(200);
  });
});

describe("rate limit shared by several servers (DELIVERY_RATE_LIMIT_SERVERS)", () => {
  it("allows each server its share of the limit, rounded up, and says the whole limit in the refusal", async () => {
    const shared = await startTestServer({ env: { DELIVERY_RATE_LIMIT_PER_MINUTE: "5", DELIVERY_RATE_LIMIT_SERVERS: "2" } });
    try {
      const own = await createTestBucket(shared.db);
      const { token } = await deliveryClient(shared.db, { read: [own.slug] });
      const call = () => deliver(shared.url, `/api/v1/delivery/buckets/${own.slug}/documents`, token);
      for (let i = 0; i < 3; i += 1) expect((await call()).status).toBe(200);
      const problem = await expectProblem(await call(), 429);
      expect(problem.detail).toContain("5 requests a minute");
    } finally {
      await shared.stop();
    }
  });
});
