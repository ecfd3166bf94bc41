import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordActivity } from "@server/admin/activity";
import { findUserByEmail } from "@server/accounts/users";
import { createTestBucket, decode, errorPage, page, signedInUser } from "@tests/support/fixtures";
import { createTestUser, fieldErrorText, formErrorText, get, homeWith, postJson, signIn } from "@tests/support/http";
import { startTestServer, type TestServer } from "@tests/support/server";

/* /settings/users and /settings/users/{id} (issue 11): the list, the edit form, deactivation, deletion, the last-admin rule. */

const LAST_ADMIN_SELF =
  "You are the last admin: you cannot take away your own Admin permission, deactivate or delete your account. Give someone else the Admin permission first.";

let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${Date.now().toString(36)}`;
const newEmail = (label: string) => `${unique(label)}@people.example.test`;

/** A form post with repeated names (checkbox groups), never following redirects. */
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

/** The edit form's fields for a user, with overrides. */
function editEntries(
  user: { name: string; email: string },
  change: { name?: string; email?: string; permissions: string[]; buckets?: string[] },
): Array<[string, string]> {
  return [
    ["name", change.name ?? user.name],
    ["email", change.email ?? user.email],
    ...change.permissions.map((permission): [string, string] => ["permissions", permission]),
    ...(change.buckets ?? []).map((slug): [string, string] => ["buckets", slug]),
  ];
}

/** A page's visible text: tags removed, entities decoded, whitespace collapsed. */
const textOf = (html: string) =>
  decode(
    html
      .replace(/<script[\s\S]*?<\/script>/g, " ")
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<[^>]+>/g, " "),
  ).replace(/\s+/g, " ");

/** Whether the checkbox `name` = `value` is there and checked. */
function checkbox(html: string, name: string, value: string): "checked" | "unchecked" | "absent" {
  const input = [...html.matchAll(/<input[^>]*>/g)]
    .map((match) => match[0])
    .find((tag) => tag.includes(`name="${name}"`) && tag.includes(`value="${value}"`));
  if (!input) return "absent";
  return /\bchecked=""/.test(input) ? "checked" : "unchecked";
}

async function userRow(server: TestServer, id: string) {
  const { rows } = await server.db.query<{
    name: string;
    email: string;
    permissions: string[];
    buckets: string[] | null;
    deactivated_at: Date | null;
    last_sign_in_at: Date | null;
  }>("SELECT name, email, permissions, buckets, deactivated_at, last_sign_in_at FROM users WHERE id = $1", [id]);
  return rows[0] ?? null;
}

async function activityFor(server: TestServer, subject: string) {
  const { rows } = await server.db.query<{ actor_name: string; area: string; action: string; details: Record<string, unknown> }>(
    "SELECT actor_name, area, action, details FROM admin_activity WHERE subject = $1 ORDER BY created_at",
    [subject],
  );
  return rows;
}

let server: TestServer;
let admin: Awaited<ReturnType<typeof signedInUser>>;
let member: Awaited<ReturnType<typeof signedInUser>>;
let bucketA: string;
let bucketB: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedInUser(server.url, server.db, { name: "Ada Admin", permissions: ["user", "admin"] });
  member = await signedInUser(server.url, server.db, { name: "Mo Member", permissions: ["user"] });
  bucketA = (await createTestBucket(server.db, { name: "Alpha" })).slug;
  bucketB = (await createTestBucket(server.db, { name: "Beta" })).slug;
});
afterAll(() => server.stop());

describe("guards: only an admin (user + admin) reaches the people screens, loaders and actions alike", () => {
  const paths = () => ["/settings", "/settings/users", `/settings/users/${member.user.id}`, "/settings/invite-user"];

  it("sends anonymous visitors to /login with from_url, and a signed-in non-admin to /", async () => {
    const dev = await signedInUser(server.url, server.db, { permissions: ["user", "dev"] });
    const adminOnly = await signedInUser(server.url, server.db, { permissions: ["admin"] });
    for (const path of paths()) {
      const anonymous = await get(server.url, path);
      expect(anonymous.status, path).toBe(302);
      expect(anonymous.headers.get("location"), path).toBe(`/login?from_url=${encodeURIComponent(path)}`);
      for (const cookie of [member.cookie, dev.cookie, adminOnly.cookie]) {
        const response = await get(server.url, path, cookie);
        expect(response.status, path).toBe(302);
        expect(response.headers.get("location"), path).toBe("/?notice=admin-only");
      }
    }
  });

  it("refuses their posts the same way and changes nothing", async () => {
    const target = await createTestUser(server.db, { permissions: ["user", "dev"] });
    const path = `/settings/users/${target.id}`;
    const attempts: Array<Array<[string, string]>> = [
      editEntries(target, { name: "Hijacked", permissions: ["user", "admin"] }),
      [["intent", "deactivate"]],
      [["intent", "delete"]],
    ];
    for (const entries of attempts) {
      const anonymous = await post(server.url, path, entries);
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get("location")).toBe(`/login?from_url=${encodeURIComponent(path)}`);
      const notAdmin = await post(server.url, path, entries, member.cookie);
      expect(notAdmin.status).toBe(302);
      expect(notAdmin.headers.get("location")).toBe("/?notice=admin-only");
    }
    expect(await userRow(server, target.id)).toMatchObject({ name: target.name, permissions: ["user", "dev"], deactivated_at: null });
    expect(await activityFor(server, target.email)).toEqual([]);
  });

  it("answers 404 for a user that does not exist, to the admin", async () => {
    for (const id of ["42", "00000000-0000-4000-8000-000000000000"]) {
      const { status, html } = await page(server.url, `/settings/users/${id}`, admin.cookie);
      expect(status).toBe(404);
      expect(errorPage(html)).toEqual({ status: "404", message: "This user does not exist (any more)" });
    }
  });
});

describe("the list", () => {
  it("shows name, email, permissions, buckets, last sign-in, and marks deactivated users", async () => {
    const prefix = unique("listed");
    const never = await createTestUser(server.db, {
      name: `${prefix} Never`,
      email: `${prefix}-never@people.example.test`,
      permissions: ["user", "dev"],
      buckets: [bucketA],
    });
    const signedIn = await createTestUser(server.db, { name: `${prefix} Active`, email: `${prefix}-active@people.example.test` });
    await signIn(server.url, signedIn.email, signedIn.password);
    expect((await userRow(server, signedIn.id))!.last_sign_in_at).toBeInstanceOf(Date);
    const gone = await createTestUser(server.db, { name: `${prefix} Gone`, email: `${prefix}-gone@people.example.test` });
    await server.db.query("UPDATE users SET deactivated_at = now() WHERE id = $1", [gone.id]);

    const { status, html } = await page(server.url, `/settings/users?q=${prefix}`, admin.cookie);
    expect(status).toBe(200);
    const rows = [...html.matchAll(/<tr( class="is-deactivated")?>([\s\S]*?)<\/tr>/g)]
      .slice(1)
      .map((match) => ({ deactivated: Boolean(match[1]), text: textOf(match[2]!).trim() }));
    expect(rows).toHaveLength(3);
    expect(rows[0]!.text).toMatch(new RegExp(`^${prefix} Active ${signedIn.email} User All buckets \\S`));
    expect(rows[0]!.text).not.toContain("Never");
    expect(rows[1]).toEqual({ deactivated: true, text: `${prefix} Gone Deactivated ${gone.email} User All buckets Never` });
    expect(rows[2]).toEqual({ deactivated: false, text: `${prefix} Never ${never.email} User Developer ${bucketA} Never` });
    expect(html).toContain(`href="/settings/users/${never.id}"`);
  });

  it("searches name and email in any case, and pages by 25", async () => {
    const prefix = unique("Paged");
    for (let index = 0; index < 27; index++) {
      await createTestUser(server.db, { name: `${prefix} ${String(index).padStart(2, "0")}`, email: newEmail("paged") });
    }
    const first = textOf((await page(server.url, `/settings/users?q=${prefix.toUpperCase()}`, admin.cookie)).html);
    expect(first).toContain("27 user(s)");
    expect(first).toContain(`${prefix} 24`);
    expect(first).not.toContain(`${prefix} 25`);
    expect(first).toContain("Page 1 of 2");
    const second = await page(server.url, `/settings/users?q=${prefix.toLowerCase()}&page=2`, admin.cookie);
    const text = textOf(second.html);
    expect(text).toContain(`${prefix} 25`);
    expect(text).toContain(`${prefix} 26`);
    expect(text).not.toContain(`${prefix} 24`);
    expect(text).toContain("Page 2 of 2");
    expect(second.html).toContain('rel="prev"');

    const byEmail = await createTestUser(server.db, { email: `${unique("FindMe")}@people.example.test` });
    const found = textOf(
      (await page(server.url, `/settings/users?q=${encodeURIComponent(byEmail.email.toLowerCase())}`, admin.cookie)).html,
    );
    expect(found).toContain("1 user(s)");
    const none = textOf((await page(server.url, "/settings/users?q=%25nobody_", admin.cookie)).html);
    expect(none).toContain("No user's name or email contains “%nobody_”.");
  });
});

describe("the edit form", () => {
  it("shows the user's values and saves name, email, permissions and buckets, recorded as activity", async () => {
    const target = await createTestUser(server.db, { name: "Edith Editor", permissions: ["user"] });
    const form = await page(server.url, `/settings/users/${target.id}`, admin.cookie);
    expect(form.status).toBe(200);
    expect(form.html).toContain(`value="${target.email}"`);
    expect(checkbox(form.html, "permissions", "user")).toBe("checked");
    expect(checkbox(form.html, "permissions", "admin")).toBe("unchecked");
    expect(checkbox(form.html, "buckets", bucketA)).toBe("unchecked");

    const email = newEmail("Renamed");
    const response = await post(
      server.url,
      `/settings/users/${target.id}`,
      editEntries(target, { name: "Edith Renamed", email, permissions: ["user", "dev"], buckets: [bucketA, bucketB] }),
      admin.cookie,
    );
    expect(response.status).toBe(302);
    // From every bucket to a list: access taken away, so the user was signed out.
    expect(response.headers.get("location")).toBe(`/settings/users/${target.id}?done=signedOut`);
    expect(await userRow(server, target.id)).toMatchObject({
      name: "Edith Renamed",
      email,
      permissions: ["user", "dev"],
      buckets: [bucketA, bucketB],
    });
    expect(textOf((await page(server.url, response.headers.get("location")!, admin.cookie)).html)).toContain(
      "The changes were saved. They took access away, so Edith Renamed was signed out everywhere.",
    );
    expect(textOf((await page(server.url, `/settings/users/${target.id}?done=saved`, admin.cookie)).html)).toContain(
      "The changes were saved.",
    );
    expect(await activityFor(server, email)).toEqual([
      {
        actor_name: "Ada Admin",
        area: "user",
        action: "updated",
        details: {
          id: target.id,
          changed: ["name", "email", "permissions", "buckets"],
          permissions: { from: ["user"], to: ["user", "dev"] },
          buckets: { from: null, to: [bucketA, bucketB] },
          sessionsEnded: true,
        },
      },
    ]);

    // No bucket chosen: every bucket again (null).
    await post(
      server.url,
      `/settings/users/${target.id}`,
      editEntries({ name: "Edith Renamed", email }, { permissions: ["user", "dev"] }),
      admin.cookie,
    );
    expect((await userRow(server, target.id))!.buckets).toBeNull();
  });

  it("refuses another user's email in any case, an empty name, no permission, an unknown permission or bucket, keeping the input", async () => {
    const target = await createTestUser(server.db, { name: "Kept Name" });
    const other = await createTestUser(server.db);
    const path = `/settings/users/${target.id}`;
    const taken = await post(
      server.url,
      path,
      editEntries(target, { name: "Typed Name", email: other.email.toUpperCase(), permissions: ["user"] }),
      admin.cookie,
    );
    expect(taken.status).toBe(409);
    const html = await taken.text();
    expect(fieldErrorText(html, "email")).toBe("Another user already has this email address");
    expect(html).toContain('value="Typed Name"');

    const cases: Array<[Array<[string, string]>, string, string]> = [
      [editEntries(target, { name: " ", permissions: ["user"] }), "name", "Enter a name"],
      [editEntries(target, { permissions: [] }), "permissions", "Choose at least one permission"],
      [editEntries(target, { permissions: ["user", "root"] }), "permissions", "Choose from User, Admin and Developer"],
      [editEntries(target, { email: "not-an-email", permissions: ["user"] }), "email", "Enter a valid email address"],
    ];
    for (const [entries, field, message] of cases) {
      const response = await post(server.url, path, entries, admin.cookie);
      expect(response.status, message).toBe(400);
      expect(fieldErrorText(await response.text(), field), message).toBe(message);
    }
    const unknownBucket = await post(
      server.url,
      path,
      editEntries(target, { permissions: ["user"], buckets: [bucketA, "no-such-bucket"] }),
      admin.cookie,
    );
    expect(unknownBucket.status).toBe(400);
    expect(textOf(await unknownBucket.text())).toContain("One of the chosen buckets no longer exists; look at the list again");
    expect(await userRow(server, target.id)).toMatchObject({
      name: "Kept Name",
      email: target.email,
      permissions: ["user"],
      buckets: null,
    });
  });
});

describe("a bucket that no longer exists in a user's list", () => {
  it("is shown as such and kept by a save that keeps it; a new unknown slug is refused", async () => {
    const target = await createTestUser(server.db, { buckets: [bucketA, "gone-bucket"] });
    const cookie = await signIn(server.url, target.email, target.password);
    const form = await page(server.url, `/settings/users/${target.id}`, admin.cookie);
    expect(checkbox(form.html, "buckets", "gone-bucket")).toBe("checked");
    expect(textOf(form.html)).toContain("gone-bucket gone-bucket (no longer exists)");

    const kept = await post(
      server.url,
      `/settings/users/${target.id}`,
      editEntries(target, { name: "Kept Lists", permissions: ["user"], buckets: [bucketA, "gone-bucket"] }),
      admin.cookie,
    );
    expect(kept.headers.get("location")).toBe(`/settings/users/${target.id}?done=saved`);
    expect(await userRow(server, target.id)).toMatchObject({ name: "Kept Lists", buckets: [bucketA, "gone-bucket"] });
    expect(await homeWith(server.url, cookie)).toBe("signed in");

    const refused = await post(
      server.url,
      `/settings/users/${target.id}`,
      editEntries(target, { permissions: ["user"], buckets: [bucketA, "gone-bucket", "never-was"] }),
      admin.cookie,
    );
    expect(refused.status).toBe(400);
  });
});

describe("a change that takes access away ends the user's sessions at once", () => {
  async function withSession(overrides: { permissions?: Array<"user" | "admin" | "dev">; buckets?: string[] | null }) {
    const user = await createTestUser(server.db, { permissions: overrides.permissions ?? ["user"], buckets: overrides.buckets ?? null });
    const cookie = await signIn(server.url, user.email, user.password);
    expect(await homeWith(server.url, cookie)).toBe("signed in");
    return { user, cookie };
  }
  const save = (user: { id: string; name: string; email: string }, permissions: string[], buckets?: string[]) =>
    post(server.url, `/settings/users/${user.id}`, editEntries(user, { permissions, buckets }), admin.cookie);

  it("removing a permission signs the user out; the page says so", async () => {
    const { user, cookie } = await withSession({ permissions: ["user", "dev"] });
    const response = await save(user, ["user"]);
    expect(response.headers.get("location")).toBe(`/settings/users/${user.id}?done=signedOut`);
    expect(await homeWith(server.url, cookie)).toBe("/login");
    const notice = textOf((await page(server.url, response.headers.get("location")!, admin.cookie)).html);
    expect(notice).toContain(`The changes were saved. They took access away, so ${user.name} was signed out everywhere.`);
  });

  it("removing a bucket, or limiting 'every bucket' to a list, signs the user out", async () => {
    const listed = await withSession({ buckets: [bucketA, bucketB] });
    await save(listed.user, ["user"], [bucketA]);
    expect(await homeWith(server.url, listed.cookie)).toBe("/login");
    const everything = await withSession({ buckets: null });
    await save(everything.user, ["user"], [bucketA, bucketB]);
    expect(await homeWith(server.url, everything.cookie)).toBe("/login");
  });

  it("adding a permission or a bucket, or renaming, keeps the sessions", async () => {
    const { user, cookie } = await withSession({ buckets: [bucketA] });
    const more = await save(user, ["user", "dev"], [bucketA, bucketB]);
    expect(more.headers.get("location")).toBe(`/settings/users/${user.id}?done=saved`);
    await save(user, ["user", "dev"]); // every bucket
    await post(
      server.url,
      `/settings/users/${user.id}`,
      editEntries(user, { name: "New Name", permissions: ["user", "dev"] }),
      admin.cookie,
    );
    expect(await homeWith(server.url, cookie)).toBe("signed in");
  });
});

describe("deactivate and reactivate", () => {
  it("a deactivated user is signed out, cannot sign in (answered as an unknown user), is marked, and can be reactivated", async () => {
    const user = await createTestUser(server.db, { name: "Dee Activated" });
    const cookie = await signIn(server.url, user.email, user.password);
    const path = `/settings/users/${user.id}`;
    const response = await post(server.url, path, [["intent", "deactivate"]], admin.cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${path}?done=deactivated`);
    expect(await homeWith(server.url, cookie)).toBe("/login");

    const refused = await postJson(server.url, "/auth/login", { email: user.email, password: user.password });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "unknown user", message: "unknown user" });
    const form = await post(server.url, "/login", [
      ["email", user.email],
      ["password", user.password],
    ]);
    expect(form.status).toBe(401);
    expect(formErrorText(await form.text())).toBe("unknown user");

    const shown = textOf((await page(server.url, `${path}?done=deactivated`, admin.cookie)).html);
    expect(shown).toContain("Dee Activated was deactivated and signed out everywhere.");
    expect(shown).toContain("Deactivated since");

    const back = await post(server.url, path, [["intent", "reactivate"]], admin.cookie);
    expect(back.headers.get("location")).toBe(`${path}?done=reactivated`);
    expect(await homeWith(server.url, await signIn(server.url, user.email, user.password))).toBe("signed in");
    expect((await activityFor(server, user.email)).map((entry) => entry.action)).toEqual(["deactivated", "reactivated"]);
  });
});

describe("delete", () => {
  it("asks for confirmation, then deletes the user and ends their sessions", async () => {
    const user = await createTestUser(server.db, { name: "Del Eted" });
    const cookie = await signIn(server.url, user.email, user.password);
    const path = `/settings/users/${user.id}`;
    const confirm = await page(server.url, `${path}?delete`, admin.cookie);
    expect(confirm.html).toContain('role="alertdialog"');
    expect(textOf(confirm.html)).toContain(`Del Eted (${user.email}) is deleted for good and signed out at once.`);
    expect(confirm.html).toMatch(
      /<div class="modal-actions">[\s\S]*<button type="submit" value="delete" class="button danger" name="intent">Delete<\/button>/,
    );

    const response = await post(server.url, path, [["intent", "delete"]], admin.cookie);
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    expect(location).toBe(`/settings/users?deleted=${encodeURIComponent(user.email)}`);
    expect(await findUserByEmail(server.db, user.email)).toBeNull();
    expect(await homeWith(server.url, cookie)).toBe("/login");
    expect(textOf((await page(server.url, location, admin.cookie)).html)).toContain(`The user ${user.email} was deleted.`);
    expect(await activityFor(server, user.email)).toEqual([
      { actor_name: "Ada Admin", area: "user", action: "deleted", details: { id: user.id, name: "Del Eted" } },
    ]);
  });
});

describe("the last admin", () => {
  let solo: TestServer;
  beforeAll(async () => {
    solo = await startTestServer();
  });
  afterAll(() => solo.stop());

  it("cannot take away their own admin permission, deactivate or delete themselves; with a second admin they can", async () => {
    const only = await signedInUser(solo.url, solo.db, { name: "Only Admin", permissions: ["user", "admin"] });
    const path = `/settings/users/${only.user.id}`;
    for (const permissions of [["user"], ["admin"], ["user", "dev"]]) {
      const response = await post(solo.url, path, editEntries(only.user, { permissions }), only.cookie);
      expect(response.status, permissions.join()).toBe(409);
      expect(formErrorText(await response.text())).toBe(LAST_ADMIN_SELF);
    }
    for (const intent of ["deactivate", "delete"]) {
      const response = await post(solo.url, path, [["intent", intent]], only.cookie);
      expect(response.status, intent).toBe(409);
      expect(formErrorText(await response.text()), intent).toBe(LAST_ADMIN_SELF);
    }
    expect(await userRow(solo, only.user.id)).toMatchObject({ permissions: ["user", "admin"], deactivated_at: null });
    expect(await homeWith(solo.url, only.cookie)).toBe("signed in");

    // Renaming themselves is fine.
    const renamed = await post(
      solo.url,
      path,
      editEntries(only.user, { name: "Still Admin", permissions: ["user", "admin"] }),
      only.cookie,
    );
    expect(renamed.status).toBe(302);

    const second = await createTestUser(solo.db, { permissions: ["user", "admin"] });
    const stepDown = await post(solo.url, path, editEntries(only.user, { name: "Still Admin", permissions: ["user"] }), only.cookie);
    expect(stepDown.status).toBe(302);
    expect((await userRow(solo, only.user.id))!.permissions).toEqual(["user"]);
    expect(await homeWith(solo.url, only.cookie)).toBe("/login"); // a permission taken away ends the sessions

    // Now `second` is the last admin; a deactivated admin does not count as one.
    const secondCookie = await signIn(solo.url, second.email, second.password);
    const refused = await post(solo.url, `/settings/users/${second.id}`, [["intent", "deactivate"]], secondCookie);
    expect(refused.status).toBe(409);
  });

  it("holds when two admins take away their own admin permission at the same moment: exactly one succeeds", async () => {
    const race = await startTestServer();
    try {
      const first = await signedInUser(race.url, race.db, { name: "First", permissions: ["user", "admin"] });
      const second = await signedInUser(race.url, race.db, { name: "Second", permissions: ["user", "admin"] });
      const responses = await Promise.all(
        [first, second].map(({ user, cookie }) =>
          post(race.url, `/settings/users/${user.id}`, editEntries(user, { permissions: ["user"] }), cookie),
        ),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([302, 409]);
      const { rows } = await race.db.query<{ count: string }>(
        "SELECT count(*) AS count FROM users WHERE 'admin' = ANY(permissions) AND deactivated_at IS NULL",
      );
      expect(Number(rows[0]!.count)).toBe(1);
    } finally {
      await race.stop();
    }
  });
});

describe("/settings: the admin areas and the activity list", () => {
  it("links every admin area and lists changes (who, what, when), newest first, by pages of 25", async () => {
    const { status, html } = await page(server.url, "/settings", admin.cookie);
    expect(status).toBe(200);
    for (const href of ["/settings/buckets", "/settings/users", "/settings/invite-user", "/settings/new-client"]) {
      expect(html, href).toContain(`href="${href}"`);
    }
    expect(html).toMatch(/<nav class="settings-nav" aria-label="Administration">/);

    const subject = unique("activity");
    for (let index = 0; index < 30; index++) {
      await recordActivity(
        server.db,
        { id: admin.user.id, name: "Ada Admin" },
        { area: "bucket", action: "created", subject: `${subject}-${index}` },
      );
    }
    // Newest first, 25 a page: the 25 newest of these on page 1, the other 5 on page 2.
    const mine = (html: string) =>
      [...textOf(html).matchAll(new RegExp(`Ada Admin Bucket created ${subject}-(\\d+)`, "g"))].map((match) => Number(match[1]));
    const first = mine((await page(server.url, "/settings", admin.cookie)).html);
    const second = await page(server.url, "/settings?page=2", admin.cookie);
    expect(first).toHaveLength(25);
    expect(mine(second.html)).toHaveLength(5);
    expect([...first, ...mine(second.html)].sort((a, b) => a - b)).toEqual([...Array(30).keys()]);
    expect(textOf(second.html)).toContain("Page 2");
    expect(second.html).toContain('href="/settings?page=1#activity"');
  });

  it("shows an admin's user change with the fields that changed", async () => {
    const target = await createTestUser(server.db);
    await post(
      server.url,
      `/settings/users/${target.id}`,
      editEntries(target, { name: "Changed By Admin", permissions: ["user", "dev"] }),
      admin.cookie,
    );
    const text = textOf((await page(server.url, "/settings", admin.cookie)).html);
    expect(text).toContain(`Ada Admin User changed ${target.email} (name, permissions)`);
  });

  it("in Dutch", async () => {
    const { html } = await page(server.url, "/settings", admin.cookie, { "Accept-Language": "nl" });
    const text = textOf(html);
    expect(text).toContain("Recente wijzigingen");
    expect(text).toContain("Gebruiker uitnodigen");
  });
});
