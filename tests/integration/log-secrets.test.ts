import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInvitation } from "@server/accounts/invitations";
import { createShareable } from "@server/content/shareables";
import { createContent } from "@server/content/store";
import { signedMediaUrl, urlExpiry } from "@server/delivery/media";
import { insertMedia } from "@server/media/store";
import { hashToken, randomToken } from "@server/security/tokens";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { exited, processEnv, startProcess } from "@tests/support/media-server";
import { createTestDatabase, TEST_SESSION_SECRET, type TestDatabase } from "@tests/support/server";

/*
 * The log never holds a secret of a link (docs/shareables.md, docs/operations.md "The log"): a shareable link's
 * token, a password reset link's token, an invitation's code, a signed media URL's signature. A real server process
 * (`npm start`) logging at trace level gets failing requests of every kind to each secret-bearing path (methods its
 * route has no handler for, malformed bodies, broken query strings, paths that match no route, overlong paths);
 * everything it wrote, stdout and stderr, every level, is read once it has stopped.
 */

let database: TestDatabase;
let mediaDir: string;
let child: ChildProcess | undefined;
let origin = "";
let output: () => string = () => "";
/** The secrets, and the paths (with query) that carry them. */
const secrets: Record<string, string> = {};
const secretPaths: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  mediaDir = mkdtempSync(path.join(tmpdir(), "vitrine-log-secrets-"));
  const { db } = database;
  const editor = await createTestUser(db, { name: "Logan Logged" });
  const bucket = await createTestBucket(db, { jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" } } } });
  const document = await createContent(db, bucket.id, { title: "Never in the log" }, editor.id);
  const shared = await createShareable(db, editor, bucket, { contentId: document.contentId, version: "latest", expiry: "7" });
  const resetToken = randomToken(32);
  await db.query("INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')", [
    hashToken(resetToken),
    editor.id,
  ]);
  const invitation = await createInvitation(db, { email: "logan-invited@example.test" });
  const image = await insertMedia(db, {
    kind: "image",
    originalFilename: "gone.jpg",
    mimetype: "image/jpeg",
    size: 10,
    width: 1,
    height: 1,
    details: {},
    bucketId: bucket.id,
    storageKey: "nowhere.jpg",
    createdBy: editor.id,
  });
  const signing = { SESSION_SECRET: TEST_SESSION_SECRET, DELIVERY_MEDIA_URL_TTL_SECONDS: 3600 };
  const signed = new URL(signedMediaUrl(signing, "http://x", image.contentId, "original", urlExpiry(signing)));
  Object.assign(secrets, {
    shareable: shared!.token,
    reset: resetToken,
    invitation: invitation.code,
    signature: signed.searchParams.get("signature")!,
  });
  secretPaths.push(
    `/shareables/${secrets.shareable}`,
    `/shareables/${secrets.shareable}.data`,
    `/shareables/${secrets.shareable}/media/${image.contentId}`,
    `/shareables/${secrets.shareable}/media/${image.contentId}/poster`,
    `/shareables/${secrets.shareable}/no/such/page`,
    `/password-reset/${secrets.reset}`,
    `/password-reset/${secrets.reset}.data`,
    `/password-reset/${secrets.reset}/no/such/page`,
    `/signup?code=${secrets.invitation}`,
    `/signup.data?code=${secrets.invitation}`,
    `/signup/no/such/page?code=${secrets.invitation}`,
    `${signed.pathname}${signed.search}`,
    `${signed.pathname}.data${signed.search}`,
    `${signed.pathname}/no/such/file${signed.search}`,
  );
  // PGlite is one process's database: the server opens the directory itself.
  await db.close();
  const started = await startProcess(processEnv(database, mediaDir, { LOG_LEVEL: "trace", MEDIA_WORKERS: "0" }));
  child = started.child;
  origin = started.url;
  output = started.output;
}, 120_000);

afterAll(async () => {
  child?.kill("SIGKILL");
  if (child) await exited(child);
  await database.drop();
  rmSync(mediaDir, { recursive: true, force: true });
});

/** Every way the test fails a request: [method, query appended, headers, body]. */
const FAILING: Array<[string, string, Record<string, string>, string | undefined]> = [
  ["GET", "", {}, undefined],
  ["HEAD", "", {}, undefined],
  ["OPTIONS", "", {}, undefined],
  ["POST", "", { "content-type": "application/x-www-form-urlencoded" }, "intent=nothing&%zz=%"],
  ["POST", "", { "content-type": "multipart/form-data; boundary=xyz" }, "--xyz\r\nnot a part"],
  ["POST", "", { "content-type": "application/json" }, "{not json"],
  ["POST", "?index&_data=routes%2Fnothing", { "content-type": "text/plain" }, "plain"],
  ["PUT", "", { "content-type": "application/json" }, "{}"],
  ["PATCH", "", { "content-type": "application/json" }, "[1,"],
  ["DELETE", "", {}, undefined],
  ["GET", "&%zz=%E0%A4%A&_data=%&__proto__[x]=1", {}, undefined],
  ["GET", "?_routes=nothing,root&version=x", {}, undefined],
];

async function fire(method: string, pathAndQuery: string, headers: Record<string, string>, body: string | undefined): Promise<Response> {
  // Same-origin, as a browser's form post: the cross-site refusal answers before the routes would.
  return fetch(`${origin}${pathAndQuery}`, {
    method,
    headers: { origin, ...headers },
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(15_000),
  });
}

/** The query part joins the path's own query with & (or starts one with ?). */
const withQuery = (pathAndQuery: string, extra: string) =>
  !extra
    ? pathAndQuery
    : extra.startsWith("?")
      ? pathAndQuery.includes("?")
        ? `${pathAndQuery}&${extra.slice(1)}`
        : `${pathAndQuery}${extra}`
      : pathAndQuery.includes("?")
        ? `${pathAndQuery}${extra}`
        : `${pathAndQuery}?${extra.slice(1)}`;

describe("the log of failing requests to secret-bearing paths", () => {
  it("holds no shareable token, reset token, invitation code or media signature, at any level", async () => {
    let answered = 0;
    const statuses = new Set<number>();
    for (const secretPath of secretPaths) {
      for (const [method, query, headers, body] of FAILING) {
        const response = await fire(method, withQuery(secretPath, query), headers, body);
        await response.arrayBuffer();
        statuses.add(response.status);
        if (response.headers.has("x-request-id")) answered += 1;
      }
      // An overlong path: the secret followed by thousands of segments no route matches.
      const [pathname, search = ""] = secretPath.split("?");
      const overlong = await fire(
        "POST",
        `${pathname}${"/segment".repeat(900)}${search ? `?${search}` : ""}`,
        { "content-type": "application/json" },
        "{}",
      );
      await overlong.arrayBuffer();
      statuses.add(overlong.status);
      if (overlong.headers.has("x-request-id")) answered += 1;
    }
    // The failures are real ones: not found, method not allowed, bad requests.
    expect([...statuses].filter((status) => status >= 400)).toEqual(expect.arrayContaining([404, 405]));
    child!.kill("SIGTERM");
    await exited(child!);
    const log = output();
    // The server logged every request it answered (so the log was read whole), and errors among them.
    expect(log.match(/"msg":"request"/g)?.length ?? 0).toBeGreaterThanOrEqual(answered);
    expect(log).toMatch(/"level":50/);
    expect(log).toContain("/shareables/[token]");
    expect(log).toContain("/password-reset/[token]");
    const leaks = Object.entries(secrets).flatMap(([kind, secret]) =>
      log
        .split("\n")
        .filter((line) => line.includes(secret))
        .map((line) => `${kind}: ${line.slice(0, 400)}`),
    );
    expect(leaks).toEqual([]);
  }, 120_000);
});
