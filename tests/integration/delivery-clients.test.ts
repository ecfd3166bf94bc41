import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findApiClient } from "@server/accounts/api-clients";
import type { User } from "@server/accounts/users";
import type { Bucket } from "@server/content/buckets";
import { createTestBucket, decode, signedInUser } from "@tests/support/fixtures";
import { deliver, deliveryClient } from "@tests/support/delivery";
import { fieldErrorText, sameOrigin } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/* An API client's allowed origins (the delivery API's CORS) and its preview flag, set when it is created and changed later on /settings/new-client. */

let server: TestServer;
let admin: { user: User; cookie: string };
let bucket: Bucket;

beforeAll(async () => {
  server = await startTestServer();
  bucket = await createTestBucket(server.db);
  admin = await signedInUser(server.url, server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
});
afterAll(() => server.stop());

function post(fields: Array<[string, string]>, cookie = admin.cookie) {
  return fetch(`${server.url}/settings/new-client`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, ...sameOrigin(server.url) },
    body: new URLSearchParams(fields),
  });
}

const INVALID = "Write each origin as its scheme and host (and port), such as https://kiosk.example.org, without a path.";

describe("allowed origins on /settings/new-client", () => {
  it("are taken when a client is created (one per line, made origins), and a path or another scheme is refused", async () => {
    const created = await post([
      ["intent", "create"],
      ["name", "Web kiosk"],
      ["read", bucket.slug],
      ["origins", "https://Kiosk.Example.org/\r\nhttp://localhost:5173 https://kiosk.example.org"],
    ]);
    expect(created.status).toBe(201);
    const token = /data-client-token="true"[^>]*value="([^"]+)"/.exec(await created.text())?.[1];
    expect(token).toBeDefined();
    const client = await findApiClient(server.db, token!.split(".")[0]!);
    expect(client?.allowedOrigins).toEqual(["https://kiosk.example.org", "http://localhost:5173"]);
    const answer = await deliver(server.url, `/api/v1/delivery/buckets/${bucket.slug}/documents`, token!, {
      Origin: "http://localhost:5173",
    });
    expect(answer.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");

    for (const origin of [
      "https://kiosk.example.org/app",
      "ftp://kiosk.example.org",
      "kiosk.example.org",
      "https://kiosk.example.org?x=1",
    ]) {
      const refused = await post([
        ["intent", "create"],
        ["name", "Bad kiosk"],
        ["read", bucket.slug],
        ["origins", origin],
      ]);
      expect(refused.status).toBe(400);
      expect(decode(fieldErrorText(await refused.text(), "origins") ?? "")).toBe(INVALID);
    }
  });

  it("are changed with the client's own form, and CORS follows at once", async () => {
    const { client, token } = await deliveryClient(server.db, { read: [bucket.slug], origins: ["https://old.example"] });
    const call = (origin: string) => deliver(server.url, `/api/v1/delivery/buckets/${bucket.slug}/documents`, token, { Origin: origin });
    expect((await call("https://old.example")).headers.get("access-control-allow-origin")).toBe("https://old.example");
    const saved = await post([
      ["intent", "origins"],
      ["clientId", client.id],
      ["origins", "https://new.example"],
    ]);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/settings/new-client?origins=${client.id}`);
    expect((await call("https://old.example")).headers.get("access-control-allow-origin")).toBeNull();
    expect((await call("https://new.example")).headers.get("access-control-allow-origin")).toBe("https://new.example");
    const page = await fetch(`${server.url}${saved.headers.get("location")}`, { headers: { Cookie: admin.cookie } });
    const html = decode(await page.text());
    expect(html).toContain("Origins: https://new.example");
    expect(html).toContain(`The allowed origins of '${client.name}' are saved.`);

    const refused = await post([
      ["intent", "origins"],
      ["clientId", client.id],
      ["origins", "https://new.example/path"],
    ]);
    expect(refused.status).toBe(400);
    expect((await findApiClient(server.db, client.id))?.allowedOrigins).toEqual(["https://new.example"]);
    // Empty: no origin at all.
    expect(
      (
        await post([
          ["intent", "origins"],
          ["clientId", client.id],
          ["origins", ""],
        ])
      ).status,
    ).toBe(302);
    expect((await findApiClient(server.db, client.id))?.allowedOrigins).toEqual([]);
  });

  it("are changed by admins only", async () => {
    const { client } = await deliveryClient(server.db, { read: [bucket.slug] });
    const member = await signedInUser(server.url, server.db, { name: "Mia Member" });
    const refused = await post(
      [
        ["intent", "origins"],
        ["clientId", client.id],
        ["origins", "https://evil.example"],
      ],
      member.cookie,
    );
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/?notice=admin-only");
    expect((await findApiClient(server.db, client.id))?.allowedOrigins).toEqual([]);
  });
});

describe("preview on /settings/new-client", () => {
  const newest = (token: string) => deliver(server.url, `/api/v1/delivery/buckets/${bucket.slug}/documents?version=newest`, token);

  it("is off unless ticked when a client is created, and ticked gives version=newest", async () => {
    const create = async (name: string, preview: boolean) => {
      const created = await post([
        ["intent", "create"],
        ["name", name],
        ["read", bucket.slug],
        ...(preview ? ([["preview", "on"]] as Array<[string, string]>) : []),
      ]);
      expect(created.status).toBe(201);
      return /data-client-token="true"[^>]*value="([^"]+)"/.exec(await created.text())![1]!;
    };
    const plain = await create("Public kiosk", false);
    const previewing = await create("Test kiosk", true);
    expect((await findApiClient(server.db, plain.split(".")[0]!))?.preview).toBe(false);
    expect((await findApiClient(server.db, previewing.split(".")[0]!))?.preview).toBe(true);
    expect((await newest(plain)).status).toBe(403);
    expect((await newest(previewing)).status).toBe(200);
  });

  it("is shown on the client's card and turned on and off there (a plain form post), at once; only by an admin", async () => {
    const { client, token } = await deliveryClient(server.db, { read: [bucket.slug] });
    const settings = await fetch(`${server.url}/settings/new-client`, { headers: { Cookie: admin.cookie } });
    const html = await settings.text();
    const card = new RegExp(`<li id="client-${client.id}"[^>]*>(.*?)</li>`, "s").exec(html)?.[1] ?? "";
    expect(card).toContain('data-client-preview="off"');
    expect(decode(card)).toContain("Published versions only.");
    expect(card).toMatch(/<input type="hidden" name="intent" value="preview"\/>/);

    const on = await post([
      ["intent", "preview"],
      ["clientId", client.id],
      ["preview", "on"],
    ]);
    expect(on.status).toBe(302);
    expect(on.headers.get("location")).toBe(`/settings/new-client?preview=${client.id}#client-${client.id}`);
    expect((await newest(token)).status).toBe(200);
    const after = await fetch(`${server.url}/settings/new-client?preview=${client.id}`, { headers: { Cookie: admin.cookie } });
    const afterHtml = decode(await after.text());
    expect(afterHtml).toContain(`may now preview drafts and releases`);
    expect(afterHtml).toContain('data-client-preview="on"');

    const editor = await signedInUser(server.url, server.db, { name: "Not an admin" });
    const refused = await post(
      [
        ["intent", "preview"],
        ["clientId", client.id],
        ["preview", "off"],
      ],
      editor.cookie,
    );
    expect([302, 403, 404]).toContain(refused.status);
    expect((await findApiClient(server.db, client.id))?.preview).toBe(true);

    expect(
      (
        await post([
          ["intent", "preview"],
          ["clientId", client.id],
          ["preview", "off"],
        ])
      ).status,
    ).toBe(302);
    expect((await newest(token)).status).toBe(403);
  });
});
