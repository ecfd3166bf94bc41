import type { Browser } from "playwright-core";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  JS_MODES,
  clickTo,
  expectTextSoon,
  launchBrowser,
  linksIn,
  newContext,
  open,
  pathOf,
  signInTo,
  signOutThroughMenu,
  textOf,
  topBarBucketNav,
  waitForHydration,
  waitForPath,
  submitAndWait,
} from "@tests/support/browser";
import { contentIdOf, control, fieldBox, save, shownErrors } from "@tests/support/content-browser";
import { startTestServer, type TestServer } from "@tests/support/server";
import { startMailServer, type TestMailServer } from "@tests/support/smtp";
import { setSchema } from "@tests/support/admin-browser";
import { DEMO_BUCKETS } from "@server/demo-content";

/*
 * Issue 11's "Done when", in one journey per JavaScript mode, on a fresh install (a fresh database seeded with the
 * demo content, as `npm start` does) with a real SMTP server: the admin, using only the browser, creates a bucket
 * whose schema has a translated field, a media field and a reference to a demo collection; invites an editor who
 * signs up from the mailed link and sees only that bucket; changes the schema through the impact preview; creates
 * an API client and reads with its token; and the editor resets a forgotten password through the mailed link.
 * Without JavaScript every one of those forms is a plain HTML post.
 */

const ADMIN_EMAIL = "admin@journey.example.test";
const ADMIN_PASSWORD = "the journey admin password";
const EDITOR_PASSWORD = "the editor's first password";
const EDITOR_NEW_PASSWORD = "the editor's second password";

const SCHEMA = {
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title", translate: true },
    inventory: { type: "string", title: "Inventory number" },
    photo: { type: "string", title: "Photo", _ref: "b-image" },
    artist: { type: "string", title: "Artist", _ref: "artists" },
  },
};
/** The change: inventory numbers of at most 4 characters, which the editor's document (INV-0042) breaks. */
const NEW_SCHEMA = {
  ...SCHEMA,
  properties: { ...SCHEMA.properties, inventory: { type: "string", title: "Inventory number", maxLength: 4 } },
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const addressedTo = (message: ParsedMail, to: string) =>
  [message.to].flat().some((entry) => entry?.value.some((address) => address.address?.toLowerCase() === to.toLowerCase()) ?? false);

/** Waits for a mail to `to` with this subject (the inbox may already hold other mails to the same address). */
async function mailTo(mail: TestMailServer, to: string, subject: string): Promise<ParsedMail> {
  await expect
    .poll(() => mail.messages.some((message) => addressedTo(message, to) && message.subject === subject), { timeout: 15_000 })
    .toBe(true);
  return mail.messages.find((message) => addressedTo(message, to) && message.subject === subject)!;
}

describe.each(JS_MODES)("$label", ({ javaScriptEnabled }) => {
  let server: TestServer;
  let mail: TestMailServer;

  beforeAll(async () => {
    mail = await startMailServer();
    server = await startTestServer({
      seed: true,
      env: { ADMIN_EMAIL, ADMIN_PASSWORD, SMTP_URL: mail.url, MAIL_FROM: "Vitrine <cms@journey.example.test>" },
    });
  });
  afterAll(async () => {
    await server.stop();
    await mail.close();
  });

  it("an admin sets up a bucket, an editor, a schema change and an API client; the editor resets a forgotten password", async () => {
    const run = `${javaScriptEnabled ? "js" : "html"}-${Date.now().toString(36)}`;
    const slug = `journey-${run}`;
    const bucketName = `Acquisitions ${run}`;
    const editorEmail = `editor-${run}@journey.example.test`;
    const clientName = `Kiosk ${run}`;

    // The fresh install holds the seeded admin and the demo buckets.
    const demo = await server.db.query<{ slug: string }>(`SELECT slug FROM buckets ORDER BY slug`);
    expect(demo.rows.map((row) => row.slug)).toEqual(DEMO_BUCKETS.map((entry) => entry.bucket.slug).sort());

    // ── 1. The admin creates a bucket: translated, media and reference fields. ──────────────────────────────────
    const adminCtx = await newContext(browser, server.url, { javaScriptEnabled });
    const admin = await adminCtx.newPage();
    await signInTo(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
    await open(admin, "/settings/buckets");
    await clickTo(admin, admin.getByRole("link", { name: "New bucket" }), "/settings/buckets/new");
    if (javaScriptEnabled) await admin.locator(".schema-editor-cm").waitFor();
    else expect(await admin.locator(".cm-editor").count()).toBe(0);
    const bucketForm = admin.locator("form.bucket-admin-form");
    await bucketForm.getByLabel("Name", { exact: true }).fill(bucketName);
    await bucketForm.getByLabel("Slug", { exact: true }).fill(slug);
    await bucketForm.getByLabel("Collection name", { exact: true }).fill(slug);
    await bucketForm.getByLabel("Locales", { exact: true }).fill("nl, en");
    await setSchema(admin, JSON.stringify(SCHEMA, null, 2));
    if (javaScriptEnabled) await expectTextSoon(admin.locator("#json-schema-status"), "The schema is valid.");
    await submitAndWait(admin, bucketForm.getByRole("button", { name: "Create bucket", exact: true }));
    await waitForPath(admin, `/settings/buckets/${slug}?saved`);
    await expectTextSoon(admin.locator("main .notice-success"), "The bucket was saved.");
    // With the demo buckets that makes more than 7: the top bar links back to the overview instead (spec §2),
    // and home lists the new bucket.
    expect(await topBarBucketNav(admin).count()).toBe(0);
    await open(admin, "/");
    expect((await linksIn(admin.locator("main ul.bucket-grid"))).map((link) => link.text)).toContain(bucketName);
    const created = await server.db.query<{ json_schema: unknown; locales: string[] }>(
      `SELECT json_schema, locales FROM buckets WHERE slug = $1`,
      [slug],
    );
    expect(created.rows).toEqual([{ json_schema: SCHEMA, locales: ["nl", "en"] }]);

    // ── 2. The admin invites an editor for that bucket only; the editor signs up from the mailed link. ───────────
    await open(admin, "/settings/invite-user");
    expect(await textOf(admin.locator("main h1"))).toBe("Invite a user");
    const inviteForm = admin.locator("form.people-form");
    await inviteForm.getByLabel("Email (optional)").fill(editorEmail);
    expect(await inviteForm.getByRole("checkbox", { name: /^User\b/ }).isChecked()).toBe(true);
    expect(await inviteForm.getByRole("checkbox", { name: /^Admin\b/ }).isChecked()).toBe(false);
    await inviteForm.getByRole("checkbox", { name: new RegExp(`^${bucketName} ${slug}`) }).check();
    await submitAndWait(admin, inviteForm.getByRole("button", { name: "Create invitation" }));
    await expectTextSoon(admin.locator("section.invitation-created .notice-success"), `The invitation was mailed to ${editorEmail}.`);
    const code = await admin.locator("[data-invitation-code]").inputValue();

    const invitation = await mail.waitForMail(editorEmail);
    const invitationLink = /https?:\/\/\S+\/signup\?code=\S+/.exec(invitation.text ?? "")?.[0];
    expect(invitationLink).toBe(`${server.url}/signup?code=${code}`);

    const editorCtx = await newContext(browser, server.url, { javaScriptEnabled });
    const editor = await editorCtx.newPage();
    await open(editor, invitationLink!);
    const signupForm = editor.locator("main form");
    expect(await signupForm.getByLabel("Invitation code", { exact: true }).inputValue()).toBe(code);
    await signupForm.getByLabel("Name", { exact: true }).fill("Eddie Editor");
    await signupForm.getByLabel("Email", { exact: true }).fill(editorEmail);
    await signupForm.getByLabel("Password", { exact: true }).fill(EDITOR_PASSWORD);
    await Promise.all([
      editor.waitForURL((url) => url.pathname === "/"),
      signupForm.getByRole("button", { name: "Create account" }).click(),
    ]);
    await waitForHydration(editor);
    await expectTextSoon(editor.locator("main h1"), "Content");
    // Only the given bucket, on the home page and in the top bar; the demo buckets stay hidden.
    expect((await linksIn(editor.locator("main ul.bucket-grid"))).map((link) => link.text)).toEqual([bucketName]);
    expect((await linksIn(topBarBucketNav(editor))).map((link) => link.text)).toEqual([bucketName]);
    const account = await server.db.query<{ permissions: string[]; buckets: string[] | null }>(
      `SELECT permissions, buckets FROM users WHERE email = $1`,
      [editorEmail],
    );
    expect(account.rows).toEqual([{ permissions: ["user"], buckets: [slug] }]);

    // The editor writes the first document through the bucket's edit page: both translations, an inventory number.
    await open(editor, `/b/${slug}/new`);
    await expectTextSoon(editor.locator("main h1"), "New document");
    await fieldBox(editor, "photo").waitFor(); // the media field renders for the editor
    await control(editor, "title.nl").fill("Aanwinst");
    if (javaScriptEnabled) await fieldBox(editor, "title").getByRole("tab", { name: "EN" }).click();
    await control(editor, "title.en").fill("Acquisition");
    await control(editor, "inventory").fill("INV-0042");
    await save(editor);
    expect(await shownErrors(editor)).toEqual({});
    await expectTextSoon(editor.locator(".notice-success"), "Saved");
    const documentId = contentIdOf(editor);

    // The admin (who sees the artists) sets the document's reference to a demo artist.
    const artist = await server.db.query<{ content_id: string }>(
      `SELECT DISTINCT c.content_id FROM contents c JOIN buckets b ON b.id = c.bucket_id JOIN versions v ON v.content_id = c.content_id
        WHERE b.slug = 'artists' AND v.data->>'name' = 'Hendrik Willem Mesdag'`,
    );
    const artistId = artist.rows[0]!.content_id;
    await open(admin, `/b/${slug}/${documentId}/latest`);
    await control(admin, "artist").selectOption({ label: "Hendrik Willem Mesdag" });
    await save(admin);
    expect(await shownErrors(admin)).toEqual({});
    await expectTextSoon(admin.locator(".notice-success"), "Saved");
    const latest = await server.db.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM versions v WHERE content_id = $1 AND NOT EXISTS (SELECT 1 FROM versions w WHERE w.base_version_id = v.version_id)`,
      [documentId],
    );
    expect(latest.rows).toHaveLength(1);
    expect(latest.rows[0]!.data).toEqual({ title: { nl: "Aanwinst", en: "Acquisition" }, inventory: "INV-0042", artist: artistId });

    // ── 3. The admin changes the schema; the impact report shows what breaks; the save waits for confirmation. ──
    await open(admin, `/settings/buckets/${slug}`);
    const posts: string[] = [];
    admin.on("request", (request) => {
      if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
    });
    await setSchema(admin, JSON.stringify(NEW_SCHEMA, null, 2));
    const saveButton = bucketForm.getByRole("button", { name: "Save", exact: true });
    if (javaScriptEnabled)
      await saveButton.click(); // the impact streams first; the save is held
    else await submitAndWait(admin, saveButton); // the save answers with the report
    const impact = admin.locator(".bucket-impact");
    await expectTextSoon(impact.getByTestId("impact-summary"), "1 of 1 documents would no longer validate.");
    expect(await textOf(impact.locator(".impact-group"))).toContain("inventory");
    expect(await impact.locator(".impact-group").getByRole("link").count()).toBeGreaterThan(0);
    expect(posts).toEqual(javaScriptEnabled ? [`/settings/buckets/${slug}/impact/stream`] : [`/settings/buckets/${slug}`]);
    const versions = async () =>
      (
        await server.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM schema_versions s JOIN buckets b ON b.id = s.bucket_id WHERE b.slug = $1`,
          [slug],
        )
      ).rows[0]!.n;
    expect(await versions()).toBe(1);

    await impact.getByRole("checkbox", { name: /^Save anyway/ }).check();
    await submitAndWait(admin, saveButton);
    await waitForPath(admin, `/settings/buckets/${slug}?saved`);
    await expectTextSoon(admin.locator("main .notice-success"), "The bucket was saved.");
    expect(await versions()).toBe(2);
    expect((await server.db.query(`SELECT json_schema FROM buckets WHERE slug = $1`, [slug])).rows[0]).toEqual({ json_schema: NEW_SCHEMA });

    // The editor opening the document now sees what no longer validates.
    await open(editor, `/b/${slug}/${documentId}/latest`);
    await expect.poll(() => shownErrors(editor)).toHaveProperty("inventory");

    // ── 4. The admin creates an API client reading the bucket; its token reads that bucket and nothing else. ──────
    await open(admin, "/settings/new-client");
    const clientForm = admin.locator("form#new-client");
    await clientForm.getByLabel("Name", { exact: true }).fill(clientName);
    await clientForm.getByLabel(`Read: ${bucketName}`, { exact: true }).check();
    await submitAndWait(admin, clientForm.getByRole("button", { name: "Create client" }));
    await expectTextSoon(admin.locator(".client-token h2"), `API client '${clientName}' created`);
    const token = await admin.locator("[data-client-token]").inputValue();
    const bearer = (path: string) => fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    const schema = await bearer(`/api/v1/buckets/${slug}/schema`);
    expect(schema.status).toBe(200);
    expect(JSON.stringify(await schema.json())).toContain('"maxLength":4');
    expect((await bearer("/api/v1/buckets/artworks/schema")).status).toBe(404);
    adminCtx.expectNoErrors();
    await adminCtx.close();

    // ── 5. The editor signs out, forgets the password, resets it through the mailed link and signs in with it. ───
    await signOutThroughMenu(editor);
    await clickTo(editor, editor.getByRole("link", { name: "Forgot your password?" }), "/password-reset");
    // With JavaScript the URL changes while the sign-in page, which has an Email field too, is still shown.
    await expectTextSoon(editor.locator("main h1"), "Reset your password");
    await editor.getByLabel("Email", { exact: true }).fill(editorEmail);
    await submitAndWait(editor, editor.getByRole("button", { name: "Send the link" }));
    await expect.poll(() => textOf(editor.locator("[data-reset-answer]"))).toMatch(/^If that address belongs to an account, a link/);
    const reset = await mailTo(mail, editorEmail, "Choose a new password for Vitrine");
    const resetLink = /https?:\/\/\S+\/password-reset\/\S+/.exec(reset.text ?? "")?.[0];
    expect(resetLink?.startsWith(`${server.url}/password-reset/`)).toBe(true);
    await open(editor, resetLink!);
    await expectTextSoon(editor.locator("main h1"), "Choose a new password");
    await editor.getByLabel("New password", { exact: true }).fill(EDITOR_NEW_PASSWORD);
    await editor.getByLabel("Repeat the new password", { exact: true }).fill(EDITOR_NEW_PASSWORD);
    await submitAndWait(editor, editor.getByRole("button", { name: "Set the password" }));
    await waitForPath(editor, "/login?password_changed=1");
    await expectTextSoon(editor.locator("main p.notice-success"), "Your password has been changed. Sign in with your new password.");
    await signInTo(editor, editorEmail, EDITOR_NEW_PASSWORD);
    expect(pathOf(editor)).toBe("/");
    expect((await linksIn(editor.locator("main ul.bucket-grid"))).map((link) => link.text)).toEqual([bucketName]);
    editorCtx.expectNoErrors();
    await editorCtx.close();
  }, 240_000);
});
