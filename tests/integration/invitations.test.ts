import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInvitation, isInvitationOpen } from "@server/accounts/invitations";
import { findUserByEmail, setUserLocale } from "@server/accounts/users";
import { clientState, createTestBucket, decode, page, signedInUser } from "@tests/support/fixtures";
import { cookieFrom, fieldErrorText, get, inputValue, postJson } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";
import { startMailServer, type TestMailServer } from "@tests/support/smtp";

/*
 * /settings/invite-user (issue 11): an admin invites; the code and link are shown once and mailed (a real SMTP
 * server in the test process); the link's holder signs up with the invitation's permissions and buckets, also
 * when open web signup is off; revoke.
 */

const PASSWORD = "a long enough password";
const MAIL_FROM = "Vitrine <cms@example.test>";

let counter = 0;
const newEmail = (label: string) => `${label}-${++counter}-${Date.now().toString(36)}@invite.example.test`;

function post(baseUrl: string, path: string, entries: Array<[string, string]>, cookie?: string) {
  return fetch(`${baseUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    // What a browser sends with a same-site form post.
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "Sec-Fetch-Site": "same-origin",
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(entries),
  });
}

function invitationEntries(fields: { email?: string; permissions?: string[]; buckets?: string[]; days?: string }): Array<[string, string]> {
  return [
    ["email", fields.email ?? ""],
    ...(fields.permissions ?? ["user"]).map((permission): [string, string] => ["permissions", permission]),
    ...(fields.buckets ?? []).map((slug): [string, string] => ["buckets", slug]),
    ["days", fields.days ?? "7"],
    ["intent", "create"],
  ];
}

const textOf = (html: string) =>
  decode(
    html
      .replace(/<script[\s\S]*?<\/script>/g, " ")
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<[^>]+>/g, " "),
  ).replace(/\s+/g, " ");

/** The code and link the page shows once after creating an invitation. */
function shownInvitation(html: string): { code: string; link: string } {
  const code = /data-invitation-code="true"[^>]*value="([^"]+)"/.exec(html)?.[1];
  const link = /data-invitation-link="true"[^>]*value="([^"]+)"/.exec(html)?.[1];
  if (!code || !link) throw new Error("the page shows no invitation");
  return { code: decode(code), link: decode(link) };
}

/** The signup form's action (the page's own address, the invitation link's code included), decoded. */
function formAction(html: string): string {
  const action = /<form[^>]*\baction="([^"]*)"/.exec(html.slice(html.indexOf("<main")))?.[1];
  if (action === undefined) throw new Error("the page has no form");
  return decode(action);
}

async function openInvitationRows(server: TestServer) {
  const { rows } = await server.db.query<{ id: string; email: string | null }>(
    "SELECT id, email FROM invitations WHERE used_at IS NULL AND revoked_at IS NULL AND expires_at > now()",
  );
  return rows;
}

describe("with mail configured (SMTP_URL, MAIL_FROM) and open signup off", () => {
  let mail: TestMailServer;
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  let shown: string;
  let hidden: string;

  beforeAll(async () => {
    mail = await startMailServer();
    server = await startTestServer({ env: { SMTP_URL: mail.url, MAIL_FROM } });
    admin = await signedInUser(server.url, server.db, { name: "Ines Inviter", permissions: ["user", "admin"] });
    shown = (await createTestBucket(server.db, { name: "Shown Bucket" })).slug;
    hidden = (await createTestBucket(server.db, { name: "Hidden Bucket" })).slug;
  });
  afterAll(async () => {
    await server.stop();
    await mail.close();
  });

  it("mails the invitation with its link; the link's holder signs up with its permissions and sees only its buckets", async () => {
    const email = newEmail("editor");
    const response = await post(
      server.url,
      "/settings/invite-user",
      invitationEntries({ email, permissions: ["user", "dev"], buckets: [shown], days: "3" }),
      admin.cookie,
    );
    // The page itself answers (no redirect that would carry the code in a URL).
    expect(response.status).toBe(200);
    expect(response.headers.get("location")).toBeNull();
    const html = await response.text();
    const { code, link } = shownInvitation(html);
    expect(link).toBe(`${server.url}/signup?code=${encodeURIComponent(code)}`);
    expect(textOf(html)).toContain(`The invitation was mailed to ${email}.`);
    expect(textOf(html)).toContain("Copy it now: the code is shown only this once.");

    const message = await mail.waitForMail(email);
    expect(message.subject).toBe("You are invited to Vitrine");
    expect(message.from?.value).toEqual([{ name: "Vitrine", address: "cms@example.test" }]);
    expect(message.text).toContain("Ines Inviter invites you to Vitrine.");
    expect(message.text).toContain(link);
    expect(message.text).toContain(code);

    // The invitation is listed as open, with who made it; the code itself is not on the page any more.
    const list = await page(server.url, "/settings/invite-user", admin.cookie);
    expect(textOf(list.html)).toContain(`${email} User Developer ${shown} Ines Inviter`);
    expect(list.html).not.toContain(code);
    const { rows } = await server.db.query<{ days: number; locale: string }>(
      "SELECT round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days, locale FROM invitations WHERE email = $1",
      [email],
    );
    expect(rows).toEqual([{ days: 3, locale: "en" }]);

    // The mailed link opens /signup with the code filled in, although open signup is off.
    const mailedLink = /https?:\/\/\S+\/signup\?code=\S+/.exec(message.text ?? "")![0];
    const signupPage = await page(server.url, new URL(mailedLink).pathname + new URL(mailedLink).search);
    expect(signupPage.status).toBe(200);
    expect(inputValue(signupPage.html, "invitationCode")).toBe(code);

    expect(formAction(signupPage.html)).toBe(`/signup?code=${encodeURIComponent(code)}`);
    const signup = await post(server.url, formAction(signupPage.html), [
      ["name", "Eddie Editor"],
      ["email", email],
      ["password", PASSWORD],
      ["invitationCode", code],
    ]);
    expect(signup.status).toBe(302);
    expect(signup.headers.get("location")).toBe("/");
    const cookie = cookieFrom(signup)!;
    const user = await findUserByEmail(server.db, email);
    expect(user).toMatchObject({ name: "Eddie Editor", permissions: ["user", "dev"], buckets: [shown] });

    const home = await page(server.url, "/", cookie);
    expect((await clientState(home.html)).buckets.map((bucket) => bucket.slug)).toEqual([shown]);
    expect((await get(server.url, `/b/${shown}`, cookie)).status).toBe(200);
    expect((await get(server.url, `/b/${hidden}`, cookie)).status).toBe(404);

    // Used: the link no longer opens signup, and the invitation left the open list.
    expect((await get(server.url, `/signup?code=${encodeURIComponent(code)}`)).headers.get("location")).toBe("/login");
    expect(textOf((await page(server.url, "/settings/invite-user", admin.cookie)).html)).not.toContain(email);
  });

  it("mails in the inviter's language", async () => {
    const dutch = await signedInUser(server.url, server.db, { name: "Nora Nederlands", permissions: ["user", "admin"] });
    await setUserLocale(server.db, dutch.user.id, "nl");
    const email = newEmail("dutch");
    const response = await post(server.url, "/settings/invite-user", invitationEntries({ email }), dutch.cookie);
    expect(textOf(await response.text())).toContain(`De uitnodiging is gemaild naar ${email}.`);
    const message = await mail.waitForMail(email);
    expect(message.subject).toBe("Je bent uitgenodigd voor Vitrine");
    expect(message.text).toContain("Nora Nederlands nodigt je uit voor Vitrine.");
    expect(message.text).toContain("Maak je account aan met deze link:");
  });

  it("an invitation for an address cannot be used with another", async () => {
    const response = await post(server.url, "/settings/invite-user", invitationEntries({ email: newEmail("bound") }), admin.cookie);
    const { code, link } = shownInvitation(await response.text());
    const other = newEmail("other");
    const signupPage = await page(server.url, new URL(link).pathname + new URL(link).search);
    const signup = await post(server.url, formAction(signupPage.html), [
      ["name", "Other"],
      ["email", other],
      ["password", PASSWORD],
      ["invitationCode", code],
    ]);
    expect(signup.headers.get("location")).toBeNull();
    expect(signup.status).toBe(400);
    expect(fieldErrorText(await signup.text(), "invitationCode")).toBe("This invitation code is unknown, already used or expired");
    expect(await findUserByEmail(server.db, other)).toBeNull();
  });

  it("without an email: nothing is mailed and the page says to pass the code on", async () => {
    const before = mail.messages.length;
    const response = await post(server.url, "/settings/invite-user", invitationEntries({}), admin.cookie);
    const html = await response.text();
    expect(textOf(html)).toContain("No email was given: pass the code or the link on yourself.");
    const { code } = shownInvitation(html);
    expect(await isInvitationOpen(server.db, code)).toBe(true);
    expect(mail.messages.length).toBe(before);
    expect(textOf((await page(server.url, "/settings/invite-user", admin.cookie)).html)).toContain("Anyone with the code");
  });

  it("revoke: the invitation leaves the list, its link no longer opens signup and its code cannot be redeemed", async () => {
    const email = newEmail("revoked");
    const response = await post(server.url, "/settings/invite-user", invitationEntries({ email }), admin.cookie);
    const { code } = shownInvitation(await response.text());
    const [row] = (await openInvitationRows(server)).filter((invitation) => invitation.email === email);
    const list = await page(server.url, "/settings/invite-user", admin.cookie);
    expect(list.html).toContain(`value="${row!.id}"`);

    const revoke = await post(
      server.url,
      "/settings/invite-user",
      [
        ["intent", "revoke"],
        ["id", row!.id],
      ],
      admin.cookie,
    );
    expect(revoke.status).toBe(302);
    expect(revoke.headers.get("location")).toBe("/settings/invite-user?done=revoked");
    const after = await page(server.url, revoke.headers.get("location")!, admin.cookie);
    expect(textOf(after.html)).toContain("The invitation was revoked: its code no longer works.");
    expect(textOf(after.html)).not.toContain(email);

    expect((await get(server.url, `/signup?code=${encodeURIComponent(code)}`)).headers.get("location")).toBe("/login");
    const signup = await post(server.url, "/signup", [
      ["name", "Late"],
      ["email", email],
      ["password", PASSWORD],
      ["invitationCode", code],
    ]);
    expect(signup.headers.get("location")).toBe("/login");
    expect(await findUserByEmail(server.db, email)).toBeNull();

    const again = await post(
      server.url,
      "/settings/invite-user",
      [
        ["intent", "revoke"],
        ["id", row!.id],
      ],
      admin.cookie,
    );
    expect(again.headers.get("location")).toBe("/settings/invite-user?done=notOpen");

    const { rows } = await server.db.query<{ area: string; action: string; actor_name: string }>(
      "SELECT area, action, actor_name FROM admin_activity WHERE subject = $1 ORDER BY created_at",
      [email],
    );
    expect(rows).toEqual([
      { area: "invitation", action: "created", actor_name: "Ines Inviter" },
      { area: "invitation", action: "revoked", actor_name: "Ines Inviter" },
    ]);
  });

  it("refuses bad input with its message and keeps it", async () => {
    const email = newEmail("typed");
    const cases: Array<[Array<[string, string]>, string, string]> = [
      [invitationEntries({ email, days: "0" }), "days", "Enter a whole number of days from 1 to 90"],
      [invitationEntries({ email, days: "91" }), "days", "Enter a whole number of days from 1 to 90"],
      [invitationEntries({ email, days: "2.5" }), "days", "Enter a whole number of days from 1 to 90"],
      [invitationEntries({ email, permissions: [] }), "permissions", "Choose at least one permission"],
      [invitationEntries({ email: "nope" }), "email", "Enter a valid email address"],
      [
        invitationEntries({ email, buckets: ["no-such-bucket"] }),
        "buckets",
        "One of the chosen buckets no longer exists; look at the list again",
      ],
    ];
    const before = (await openInvitationRows(server)).length;
    for (const [entries, field, message] of cases) {
      const response = await post(server.url, "/settings/invite-user", entries, admin.cookie);
      expect(response.status, message).toBe(400);
      const html = await response.text();
      expect(fieldErrorText(html, field), message).toBe(message);
      expect(html).not.toContain("data-invitation-code");
    }
    const kept = await post(server.url, "/settings/invite-user", invitationEntries({ email, days: "0" }), admin.cookie);
    expect(inputValue(await kept.text(), "email")).toBe(email);
    expect((await openInvitationRows(server)).length).toBe(before);
  });

  it("POST /auth/signup accepts a redeemable invitation too, and refuses (403) without one", async () => {
    const { code } = await createInvitation(server.db, { permissions: ["user"], buckets: [shown] });
    const email = newEmail("api");
    const created = await postJson(server.url, "/auth/signup", { name: "Api Person", email, password: PASSWORD, invitationCode: code });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ email, permissions: ["user"], buckets: [shown] });
    const refused = await postJson(server.url, "/auth/signup", {
      name: "No Code",
      email: newEmail("nocode"),
      password: PASSWORD,
      invitationCode: "not-a-code",
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "Signup is not allowed" });
  });
});

describe("guards", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it("anonymous visitors go to /login, non-admins to /, for the page and both actions; nothing is created or revoked", async () => {
    const member = await signedInUser(server.url, server.db, { permissions: ["user", "dev"] });
    const { id } = await createInvitation(server.db, { email: "kept@example.test" });
    for (const cookie of [undefined, member.cookie]) {
      const expected = cookie ? "/?notice=admin-only" : `/login?from_url=${encodeURIComponent("/settings/invite-user")}`;
      const view = await get(server.url, "/settings/invite-user", cookie);
      expect(view.headers.get("location")).toBe(expected);
      const create = await post(
        server.url,
        "/settings/invite-user",
        invitationEntries({ email: "sneaky@example.test", permissions: ["user", "admin"] }),
        cookie,
      );
      expect(create.status).toBe(302);
      expect(create.headers.get("location")).toBe(expected);
      const revoke = await post(
        server.url,
        "/settings/invite-user",
        [
          ["intent", "revoke"],
          ["id", id],
        ],
        cookie,
      );
      expect(revoke.headers.get("location")).toBe(expected);
    }
    expect((await openInvitationRows(server)).map((row) => row.email)).toEqual(["kept@example.test"]);
  });
});

describe("mail that cannot be sent, and no mail at all", () => {
  it("a failed mail loses nothing: the code is shown and the page says the mail failed", async () => {
    // A port nobody listens on: the SMTP connection is refused.
    const closed = await startMailServer();
    const url = closed.url;
    await closed.close();
    const server = await startTestServer({ env: { SMTP_URL: url, MAIL_FROM } });
    try {
      const admin = await signedInUser(server.url, server.db, { permissions: ["user", "admin"] });
      const email = newEmail("unlucky");
      const response = await post(server.url, "/settings/invite-user", invitationEntries({ email }), admin.cookie);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(textOf(html)).toContain(`The invitation could not be mailed to ${email}. It is valid: pass the code or the link on yourself.`);
      const { code } = shownInvitation(html);
      expect(await isInvitationOpen(server.db, code)).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it("without SMTP the page shows the code, says mail is not set up, and links from PUBLIC_URL", async () => {
    const server = await startTestServer({ env: { PUBLIC_URL: "https://cms.example.test" } });
    try {
      const admin = await signedInUser(server.url, server.db, { permissions: ["user", "admin"] });
      const form = await page(server.url, "/settings/invite-user", admin.cookie);
      expect(textOf(form.html)).toContain("Mail is not set up here: pass the code on yourself.");
      expect(inputValue(form.html, "days")).toBe("7");
      const email = newEmail("unmailed");
      const response = await post(server.url, "/settings/invite-user", invitationEntries({ email }), admin.cookie);
      const html = await response.text();
      expect(textOf(html)).toContain(`Mail is not set up on this installation: pass the code or the link on to ${email} yourself.`);
      const { code, link } = shownInvitation(html);
      expect(link).toBe(`https://cms.example.test/signup?code=${encodeURIComponent(code)}`);
    } finally {
      await server.stop();
    }
  });
});
