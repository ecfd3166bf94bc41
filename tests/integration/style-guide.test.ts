import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIELD_KINDS } from "@core/form/field-kind";
import { page, signedInUser } from "@tests/support/fixtures";
import { startTestServer, type TestServer } from "@tests/support/server";

/* /style, the living style guide: a signed-in page like every other (spec §4 auth guard), rendered on the server. */

let server: TestServer;
let member: string;

beforeAll(async () => {
  server = await startTestServer();
  member = (await signedInUser(server.url, server.db)).cookie;
});
afterAll(() => server.stop());

describe("/style", () => {
  it("answers 200 for a signed-in user, with a section for every field kind in the HTML", async () => {
    const { status, html } = await page(server.url, "/style", member);
    expect(status).toBe(200);
    expect(html).toContain("data-style-guide");
    expect(html).toContain("<title>Style guide · Vitrine</title>");
    for (const kind of FIELD_KINDS) {
      const section = new RegExp(`<section id="kind-${kind}" class="style-kind" data-kind="${kind}"`);
      expect(html, kind).toMatch(section);
    }
    // The error state carries the validator's message, rendered by the server.
    expect(html).toContain("This text can&#x27;t be longer than 30 characters");
    expect(html).toContain("This list should have minimum 2 item(s)");
  });

  it("follows the language of the visitor: Dutch texts and Dutch validation messages", async () => {
    const { status, html } = await page(server.url, "/style", member, { "Accept-Language": "nl-NL,nl;q=0.9" });
    expect(status).toBe(200);
    expect(html).toContain('<html lang="nl"');
    expect(html).toContain("<title>Stijlgids · Vitrine</title>");
    expect(html).toContain("Deze tekst mag niet langer zijn dan 30 tekens");
    expect(html).toContain("Er moeten minstens 2 items in deze lijst zitten");
  });

  it("sends an anonymous visitor to /login with from_url, and a user without the user permission to /no-access", async () => {
    expect(await page(server.url, "/style")).toMatchObject({ status: 302, location: "/login?from_url=%2Fstyle" });
    const { cookie } = await signedInUser(server.url, server.db, { permissions: ["dev"] });
    expect(await page(server.url, "/style", cookie)).toMatchObject({ status: 302, location: "/no-access" });
  });
});
