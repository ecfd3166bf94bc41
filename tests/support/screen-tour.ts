import type { Page } from "playwright-core";
import { createApiClient } from "@server/accounts/api-clients";
import { createInvitation } from "@server/accounts/invitations";
import { recordActivity } from "@server/admin/activity";
import { createContent, deleteContent, getLatestVersion, saveVersion } from "@server/content/store";
import { listContents } from "@server/content/listing";
import { publishDocument, unpublishDocument } from "@server/content/publishing";
import { addToRelease, createRelease, scheduleRelease } from "@server/content/release-editing";
import { publishRelease } from "@server/content/release-rollout";
import { libraryBuckets } from "@server/media/library";
import { describeMediaItem } from "@server/media/library-item";
import { itemForOwnTexts } from "@server/media/use-items";
import { askForReview } from "@server/content/reviews";
import { createDraft } from "@server/content/drafts";
import type { Db } from "@server/db/client";
import { hashToken, randomToken } from "@server/security/tokens";
import { DEMO_BUCKETS } from "@server/demo-content";
import { waitForHydration } from "./browser";
import { createTestBucket, IE11_UA } from "./fixtures";
import { createTestUser, get, inputValue, postForm, signIn } from "./http";
import { jpegOfSize, pngOfSize, upload, videoOf } from "./media-fixtures";
import type { TestServer } from "./server";

/*
 * The tour of every screen and dialog: `npm run screens` photographs each entry (en and nl, 1280 and 390 px) and
 * tests/e2e/visual-checks.test.ts checks each (axe-core, dialog overflow, nothing off the viewport at 390 px).
 *
 * Adding a screen or a dialog is one object in TOUR (docs/testing.md):
 *   { name: "bucket-new", as: "editor", setup: exhibitionsBucket, path: (data) => `/b/${data.slug}/new` }
 *   { name: "bucket-edit-popup", as: "editor", setup: …, path: …, open: ({ page }) => page.click(…), dialog: "dialog.bucket-form-modal" }
 */

export type TourRole = "admin" | "editor" | "anonymous";
export type TourData = Record<string, string>;

/** What a setup gets: the server, its database and the signed-in admin, and `once` for what setups share. */
export interface TourSetup {
  server: TestServer;
  db: Db;
  admin: { id: string; cookie: string };
  /** Runs `make` once per server under `key`; later calls get the same answer. */
  once<T>(key: string, make: () => Promise<T>): Promise<T>;
}

/** What an entry's `open` gets: the page (on its path, ready), its setup's data and the page's language. */
export interface TourStep {
  page: Page;
  data: TourData;
  language: TourLanguage;
  /** The interface text of `key` (locales/{language}/common.json), {{params}} filled. */
  t: (key: string, params?: Record<string, string | number>) => string;
}

export type TourLanguage = "en" | "nl";

export interface TourEntry {
  /** Unique, file-name safe: the screenshot is {name}-{language}-{width}.png. */
  name: string;
  /** Who looks: the demo admin (user, admin, dev), an editor (user permission, every bucket) or nobody signed in. */
  as: TourRole;
  /** The URL to open; a function of the setup's data when it names what the setup made. */
  path: string | ((data: TourData) => string);
  /** Makes what the screen needs (its own bucket, documents, media), once per server; answers data for path/open. */
  setup?: (setup: TourSetup) => Promise<TourData>;
  /** A CSS selector that shows once the screen is ready (default: the page's <h1>). */
  ready?: string;
  /** The action that opens the dialog (clicks, typing); runs after `ready`. */
  open?: (step: TourStep) => Promise<void>;
  /** The CSS selector of the dialog's box (the <dialog> or the role=dialog element): checked for overflow. */
  dialog?: string;
  /** The HTTP status the path answers (default 200). */
  status?: number;
  /** Scripts on (default) or off. */
  javaScriptEnabled?: boolean;
  /** The browser's User-Agent (default: the browser's own). */
  userAgent?: string;
}

/** A schema whose `default` nests 70 lists: over the limit of 64 levels (issue 36). */
const TOO_DEEP_SCHEMA = `{\n  "type": "object",\n  "properties": {\n    "a": { "type": "array", "default": ${"[".repeat(70)}${"]".repeat(70)} }\n  }\n}`;
/** Written for rjsf: shared parts under definitions, a $ref in each field that uses one. */
const RJSF_SCHEMA = JSON.stringify(
  {
    type: "object",
    definitions: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
    properties: {
      billing_address: { title: "Billing address", $ref: "#/definitions/address" },
      shipping_address: { title: "Shipping address", $ref: "#/definitions/address" },
    },
  },
  null,
  2,
);

// ---------------------------------------------------------------------------------------------------------------
// Setups: each makes its own bucket and documents with unique slugs, so entries never see each other's changes.

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}-${Date.now().toString(36)}`;

const demo = (slug: string) => {
  const found = DEMO_BUCKETS.find((candidate) => candidate.bucket.slug === slug);
  if (!found) throw new Error(`no demo bucket ${slug}`);
  return found;
};

/**
 * A demo bucket's documents: fixed ones as written; those made at seeding (references to other demo documents, media)
 * as the server's demo seeding stored them, oldest first.
 */
async function demoDocuments(db: Db, slug: string): Promise<Record<string, unknown>[]> {
  const { documents } = demo(slug);
  if (Array.isArray(documents)) return documents;
  const seeded = (await db.query<{ id: string }>("SELECT id FROM buckets WHERE slug = $1", [slug])).rows[0];
  if (!seeded) throw new Error(`demo bucket ${slug} was not seeded`);
  return (await listContents(db, seeded.id, { limit: 100 })).reverse().map((version) => version.data);
}

/** A copy of a demo bucket (its schema and documents) under a new slug; answers slug, contentId, versionId of its first document. */
async function demoCopy(setup: TourSetup, slug: string): Promise<TourData> {
  const { bucket } = demo(slug);
  const documents = await demoDocuments(setup.db, slug);
  const { collectionName: _collection, ...rest } = bucket; // the copy's collection is named after its own slug
  const copy = await createTestBucket(setup.db, { ...rest, name: `${rest.name} (tour)`, slug: unique(slug) });
  let first: { contentId: string; versionId: string } | null = null;
  for (const document of documents) {
    const created = await createContent(setup.db, copy.id, document, setup.admin.id, { singleton: copy.singleton });
    first ??= created;
  }
  return { slug: copy.slug, name: copy.name, contentId: first?.contentId ?? "", versionId: first?.versionId ?? "" };
}

/** The exhibitions schema (every common field kind) with its demo documents, and a second version of the first. */
const exhibitions = (setup: TourSetup) =>
  setup.once("exhibitions", async () => {
    const data = await demoCopy(setup, "exhibitions");
    const bucket = (await setup.db.query<{ id: string }>("SELECT id FROM buckets WHERE slug = $1", [data.slug])).rows[0]!;
    const first = (await getLatestVersion(setup.db, bucket.id, data.contentId!))!;
    const second = await saveVersion(setup.db, {
      bucketId: bucket.id,
      contentId: data.contentId!,
      baseVersionId: first.versionId,
      data: {
        ...first.data,
        subtitle: { nl: "Schilders van de Waddenkust en het Noorden", en: "Painters of the Wadden coast and the North" },
      },
      userId: setup.admin.id,
    });
    return { ...data, firstVersionId: first.versionId, versionId: second.versionId };
  });

const singleton = (setup: TourSetup) => setup.once("singleton", () => demoCopy(setup, "site-settings"));

/** The demo artists: each has a colour that is not required, so its field shows the picker and 'Clear colour'. */
const artists = (setup: TourSetup) => setup.once("artists", () => demoCopy(setup, "artists"));

/** A hall whose listed inline lamp no longer fits its bucket's schema: a duplicate cannot copy it (issue 36). */
const brokenHall = (setup: TourSetup) =>
  setup.once("brokenHall", async () => {
    const lampSchema = {
      type: "object",
      required: ["name", "watts"],
      properties: { name: { type: "string", title: "Name" }, watts: { type: "integer", title: "Watts" } },
    };
    const lamps = await createTestBucket(setup.db, { name: "Lamps", slug: unique("lamps"), jsonSchema: lampSchema });
    const halls = await createTestBucket(setup.db, {
      name: "Halls",
      slug: unique("halls"),
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          lamps: { type: "array", title: "Lamps", items: { type: "string", _ref: lamps.collectionName, renderer: "inline" } },
        },
      },
    });
    // Saved before its bucket required watts.
    const lamp = await createContent(setup.db, lamps.id, { name: "Ceiling lamp" }, setup.admin.id);
    const hall = await createContent(setup.db, halls.id, { title: "Great hall", lamps: [lamp.contentId] }, setup.admin.id);
    return { slug: halls.slug, contentId: hall.contentId };
  });

/** A bucket with 30 documents, some with long titles: the overview's list, grid and pages. */
const manyDocuments = (setup: TourSetup) =>
  setup.once("many", async () => {
    const bucket = await createTestBucket(setup.db, { name: "Artworks of the permanent collection", slug: unique("collection") });
    let last = "";
    for (let index = 1; index <= 30; index++) {
      const title = index % 7 === 0 ? `A long title that an editor would still want to read whole, number ${index}` : `Artwork ${index}`;
      last = (await createContent(setup.db, bucket.id, { title }, setup.admin.id)).contentId;
    }
    // The newest document is on the first page (the overview lists the latest saved first).
    return { slug: bucket.slug, contentId: last };
  });

/** Polls a media content until its jobs are done (or fails after a deadline). */
async function mediaCompleted(server: TestServer, cookie: string, kind: "image" | "video", contentId: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const response = await get(server.url, `/api/v1/buckets/${kind}/content/${contentId}/latest`, cookie);
    const content = (await response.json()) as { status?: string };
    if (content.status === "completed") return;
    if (content.status === "error" || Date.now() > deadline) throw new Error(`media ${contentId}: ${JSON.stringify(content)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A bucket with an image field (crop allowed) and a video field (custom stills), and one document holding both. */
const media = (setup: TourSetup) =>
  setup.once("media", async () => {
    const photo = { type: "string", title: "Photo", _ref: "b-image", enableCrop: true, minWidthCrop: 400, minHeightCrop: 300 };
    const clip = { type: "string", title: "Clip", _ref: "b-video", allowCustomStill: true, minWidth: 320, minHeight: 240 };
    const bucket = await createTestBucket(setup.db, {
      name: "Media",
      slug: unique("media"),
      jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" }, photo, clip } },
    });
    const send = async (kind: "image" | "video", property: object, file: { data: Buffer; name: string }) => {
      const response = await upload(
        setup.server.url,
        kind,
        setup.admin.cookie,
        { bucket: bucket.slug, uid: "tour", properties: JSON.stringify(property) },
        file,
      );
      if (response.status !== 200) throw new Error(`upload ${kind}: ${response.status} ${await response.text()}`);
      const [content] = (await response.json()) as Array<{ contentId: string }>;
      await mediaCompleted(setup.server, setup.admin.cookie, kind, content!.contentId);
      return content!.contentId;
    };
    const photoId = await send("image", photo, { data: await jpegOfSize(2400, 1600), name: "harbour.jpg" });
    const clipId = await send("video", clip, { data: videoOf({ width: 320, height: 240, fps: 25, seconds: 4 }), name: "dunes.mp4" });
    const document = await createContent(setup.db, bucket.id, { title: "Harbour at dusk", photo: photoId, clip: clipId }, setup.admin.id);
    return { slug: bucket.slug, contentId: document.contentId };
  });

/**
 * Shareable links made by the admin (rows written directly: a token's hash, as the form would): to the history
 * document's latest version (every common field kind and an image), to the media document (a video), and an
 * expired and a revoked one for the list.
 */
const shares = (setup: TourSetup) =>
  setup.once("shares", async () => {
    const [document, clip]: [TourData, TourData] = await Promise.all([history(setup), media(setup)]);
    const link = async (slug: string, contentId: string, state: "active" | "expired" | "revoked" = "active") => {
      const token = randomToken(32);
      const { rows } = await setup.db.query<{ id: string }>(
        `INSERT INTO shareables (token_hash, bucket_id, content_id, created_by, expires_at, revoked_at)
         VALUES ($1, (SELECT id FROM buckets WHERE slug = $2), $3, $4, now() + $5::interval, $6) RETURNING id`,
        [
          hashToken(token),
          slug,
          contentId,
          setup.admin.id,
          state === "expired" ? "-1 day" : "7 days",
          state === "revoked" ? new Date() : null,
        ],
      );
      return { token, id: rows[0]!.id };
    };
    await link(clip.slug!, clip.contentId!, "expired");
    await link(document.slug!, document.contentId!, "revoked");
    const mediaLink = await link(clip.slug!, clip.contentId!);
    const documentLink = await link(document.slug!, document.contentId!);
    // Its image described in the library: the shared page shows its alternative text, and its caption and credits.
    await setup.db.query(
      `UPDATE media_items SET descriptions = $2::jsonb, credits = $3
       WHERE content_id IN (SELECT media_content_id FROM media_uses WHERE document_id = $1)`,
      [
        document.contentId,
        JSON.stringify({
          alt: { en: "A harbour at dusk, boats moored along the quay", nl: "Een haven bij schemering, boten langs de kade" },
          caption: { en: "The harbour at dusk, about 1890", nl: "De haven bij schemering, omstreeks 1890" },
        }),
        "© Tour Museum",
      ],
    );
    // A link to a release of both documents: the shared release's page, and a release's row in the list.
    const actor = { id: setup.admin.id, name: "Tour admin" };
    const release = await createRelease(setup.db, actor, { name: "Spring opening: Harbours" });
    for (const shown of [document, clip]) {
      const bucketId = (await setup.db.query<{ id: string }>("SELECT id FROM buckets WHERE slug = $1", [shown.slug])).rows[0]!.id;
      await addToRelease(setup.db, actor, release.id, { bucketId, contentId: shown.contentId! });
    }
    const releaseToken = randomToken(32);
    await setup.db.query(
      `INSERT INTO shareables (token_hash, release_id, created_by, expires_at) VALUES ($1, $2, $3, now() + interval '30 days')`,
      [hashToken(releaseToken), release.id, setup.admin.id],
    );
    return { documentToken: documentLink.token, mediaToken: mediaLink.token, activeId: documentLink.id, releaseToken };
  });

/** A bucket with a name per interface locale (and a default name no page should show). */
const namedBucket = (setup: TourSetup) =>
  setup.once("named-bucket", async () => {
    const bucket = await createTestBucket(setup.db, {
      name: "Artworks (default)",
      names: { en: "Paintings", nl: "Schilderijen" },
      slug: unique("named"),
    });
    await createContent(setup.db, bucket.id, { title: "Harbour at dusk" }, setup.admin.id);
    return { slug: bucket.slug };
  });

/** The id of a bucket by its slug. */
async function bucketId(db: Db, slug: string): Promise<string> {
  const row = (await db.query<{ id: string }>("SELECT id FROM buckets WHERE slug = $1", [slug])).rows[0];
  if (!row) throw new Error(`no bucket ${slug}`);
  return row.id;
}

/** The seeded demo cases with their videos' stills made (the picker's clip cards show them), or none without ffmpeg. */
const seededCases = (setup: TourSetup) =>
  setup.once("seeded-cases", async () => {
    for (const document of await demoDocuments(setup.db, "cases")) {
      if (typeof document.thumbnail === "string") await mediaCompleted(setup.server, setup.admin.cookie, "video", document.thumbnail);
    }
    return {};
  });

/** A copy of the demo sessions (reference select, trend select, video cases as clip cards), the cases' stills made. */
const sessions = (setup: TourSetup) =>
  setup.once("sessions", async () => {
    await seededCases(setup);
    return demoCopy(setup, "sessions");
  });

/** A copy of the demo learning sessions (dle-sessies: cases, availability), the cases' stills made. */
const dleSessions = (setup: TourSetup) =>
  setup.once("dle-sessions", async () => {
    await seededCases(setup);
    return demoCopy(setup, "dle-sessions");
  });

/** The session overviews' grid: the view switch (kept in the entry's own session), then the cards' stills. */
async function showGrid({ page }: TourStep): Promise<void> {
  await page.locator('.view-switch button[value="grid"]').click();
  await page.locator('.view-switch button[value="grid"][aria-pressed="true"]').waitFor();
  await page.locator("li.session-card img").first().waitFor();
}

/** A copy of the demo learning environment (dle-content, a singleton). */
const learningEnvironment = (setup: TourSetup) => setup.once("learning-environment", () => demoCopy(setup, "learning-environment"));

/** The demo learning environment's content in a bucket of several environments (dle-content new and version pages). */
const learningEnvironments = (setup: TourSetup) =>
  setup.once("learning-environments", async () => {
    const { bucket } = demo("learning-environment");
    const { collectionName: _collection, ...rest } = bucket;
    const copy = await createTestBucket(setup.db, {
      ...rest,
      singleton: false,
      name: "Learning environments (tour)",
      slug: unique("learning-environments"),
    });
    const [document] = await demoDocuments(setup.db, "learning-environment");
    const created = await createContent(setup.db, copy.id, document!, setup.admin.id, { singleton: false });
    return { slug: copy.slug, contentId: created.contentId, versionId: created.versionId };
  });

/**
 * The trend screen (issue 13, trend): the seeded demo trends themselves, only looked at (never saved), because their
 * related trends and the demo sessions that use them name the demo's own contentIds: 'Light and water' is related to
 * two trends and chosen by a session, so its page shows every part (images, translated texts, where-used).
 */
const demoTrends = (setup: TourSetup) =>
  setup.once("demo-trends", async () => {
    const { rows } = await setup.db.query<{ contentId: string }>(
      `SELECT c.content_id AS "contentId" FROM contents c JOIN buckets b ON b.id = c.bucket_id JOIN versions v ON v.version_id = c.latest_version_id
       WHERE b.slug = 'trends' AND v.data->'title'->>'en' = 'Light and water'`,
    );
    if (!rows[0]) throw new Error("the demo trend 'Light and water' was not seeded");
    return { slug: "trends", contentId: rows[0].contentId };
  });

/** A copy of the demo artworks (tags as chips). */
const artworks = (setup: TourSetup) => setup.once("artworks", () => demoCopy(setup, "artworks"));

/**
 * Issue 36: a bucket whose year field became an integer under a stored date (the document opens with the spec's
 * message and the stored value, each on its line), with a select of an integer enum and an integer field.
 */
const loans = (setup: TourSetup) =>
  setup.once("loans", async () => {
    const bucket = await createTestBucket(setup.db, {
      name: "Loans",
      slug: unique("loans"),
      jsonSchema: {
        type: "object",
        required: ["title"],
        properties: {
          title: { type: "string", title: "Title" },
          born: { type: "integer", title: "Year of birth" },
          room: { type: "integer", title: "Room", enum: [1, 2, 3], labels: { 1: "East wing", 2: "Atrium", 3: "Tower" } },
          seats: { type: "integer", title: "Seats" },
        },
      },
    });
    const document = await createContent(
      setup.db,
      bucket.id,
      { title: "Portrait of a lady", born: "1831-02-23", room: 2, seats: 12 },
      setup.admin.id,
    );
    return { slug: bucket.slug, contentId: document.contentId };
  });

/**
 * Version history: a copy of the exhibitions whose first document has three versions, the last with a poster (a
 * media thumbnail in the comparison), a changed subtitle (per locale), price and artworks.
 */
const history = (setup: TourSetup) =>
  setup.once("history", async () => {
    const data = await demoCopy(setup, "exhibitions");
    const id = await bucketId(setup.db, data.slug!);
    const first = (await getLatestVersion(setup.db, id, data.contentId!))!;
    const second = await saveVersion(setup.db, {
      bucketId: id,
      contentId: data.contentId!,
      baseVersionId: first.versionId,
      data: { ...first.data, ticketPrice: 16, featured: false },
      userId: setup.admin.id,
    });
    const poster = (demo("exhibitions").bucket.jsonSchema as { properties: Record<string, object> }).properties;
    const response = await upload(
      setup.server.url,
      "image",
      setup.admin.cookie,
      { bucket: data.slug!, uid: "tour", properties: JSON.stringify(poster.poster) },
      { data: await jpegOfSize(1920, 1080), name: "poster.jpg" },
    );
    if (response.status !== 200) throw new Error(`upload poster: ${response.status} ${await response.text()}`);
    const [image] = (await response.json()) as Array<{ contentId: string }>;
    await mediaCompleted(setup.server, setup.admin.cookie, "image", image!.contentId);
    const artworks = Array.isArray(first.data.artworks) ? [...(first.data.artworks as string[])].reverse() : [];
    const third = await saveVersion(setup.db, {
      bucketId: id,
      contentId: data.contentId!,
      baseVersionId: second.versionId,
      data: {
        ...second.data,
        subtitle: { nl: "Schilders van de Waddenkust en het Noorden", en: "Painters of the Wadden coast and the North" },
        artworks,
        poster: image!.contentId,
      },
      userId: setup.admin.id,
    });
    return { ...data, firstVersionId: first.versionId, secondVersionId: second.versionId, versionId: third.versionId };
  });

/**
 * References: a small collection (one of its documents deleted), a large one (over the select's 200: a combobox, a
 * search box without JavaScript) and a document referring to both by a select, a reference list and a popup.
 */
const references = (setup: TourSetup) =>
  setup.once("references", async () => {
    const places = await createTestBucket(setup.db, {
      name: "Lending museums",
      slug: unique("lenders"),
      jsonSchema: { type: "object", properties: { title: { type: "string", title: "Name" } } },
    });
    const made: string[] = []; // the second is deleted below
    for (const title of ["Rijksmuseum Amsterdam", "Museum that closed", "Fries Museum Leeuwarden"]) {
      made.push((await createContent(setup.db, places.id, { title }, setup.admin.id)).contentId);
    }
    // Rijksmuseum published, Fries Museum a draft: the field shows both states.
    await publishDocument(setup.db, { id: setup.admin.id, name: "Tour admin" }, { bucket: places, contentId: made[0]! });
    const objects = await createTestBucket(setup.db, {
      name: "Collection objects",
      slug: unique("objects"),
      jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" } } },
    });
    let object = "";
    for (let index = 1; index <= 205; index++) {
      const created = await createContent(
        setup.db,
        objects.id,
        { title: `Object ${String(index).padStart(3, "0")}: ${index % 3 ? "tile" : "print"} from the depot` },
        setup.admin.id,
      );
      if (index === 42) object = created.contentId;
    }
    // Clip cards of a case without a video (no still) and of a deleted case.
    const films = await createTestBucket(setup.db, {
      name: "Loan films",
      slug: unique("films"),
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          subtitle: { type: "string", title: "Subtitle" },
          thumbnail: { type: "string", title: "Video", _ref: "b-video" },
        },
      },
    });
    const film = await createContent(setup.db, films.id, { title: "Packing the tile", subtitle: "Before it travels" }, setup.admin.id);
    const goneFilm = await createContent(setup.db, films.id, { title: "Unpacked" }, setup.admin.id);
    await deleteContent(setup.db, films.id, goneFilm.contentId, goneFilm.versionId);
    const referrer = await createTestBucket(setup.db, {
      name: "Loans",
      slug: unique("loans"),
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          object: { type: "string", title: "Object on loan", _ref: objects.collectionName },
          lender: { type: "string", title: "Lender", _ref: places.collectionName },
          lenders: { type: "array", title: "Earlier lenders", items: { type: "string", _ref: places.collectionName } },
          contact: { type: "string", title: "Contact museum", _ref: places.collectionName, renderer: "popup" },
          films: { type: "array", title: "Films", renderer: "video-cases", items: { type: "string", _ref: films.collectionName } },
        },
      },
    });
    const loan = await createContent(
      setup.db,
      referrer.id,
      {
        title: "Loan of a tile",
        object,
        lender: made[1],
        lenders: [made[0], made[1], made[2]],
        contact: made[1],
        films: [film.contentId, goneFilm.contentId],
      },
      setup.admin.id,
    );
    const closed = (await getLatestVersion(setup.db, places.id, made[1]!))!;
    await deleteContent(setup.db, places.id, made[1]!, closed.versionId);
    return { slug: referrer.slug, contentId: loan.contentId, lendersSlug: places.slug, usedId: made[0]! };
  });

/** A popup sub-form's own collection and a document whose popup field refers to it (the no-JavaScript round trip). */
const popupRoundTrip = (setup: TourSetup) =>
  setup.once("popup-round-trip", async () => {
    const people = await createTestBucket(setup.db, {
      name: "Speakers",
      slug: unique("speakers"),
      jsonSchema: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string", title: "Name" }, biography: { type: "string", title: "Biography", renderer: "textarea" } },
      },
    });
    const talks = await createTestBucket(setup.db, {
      name: "Talks",
      slug: unique("talks"),
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title", translate: true },
          date: { type: "string", format: "date", title: "Date" },
          speaker: { type: "string", title: "Speaker", _ref: people.collectionName, renderer: "popup" },
        },
      },
    });
    const talk = await createContent(
      setup.db,
      talks.id,
      { title: { nl: "Licht op het wad", en: "Light on the mudflats" }, date: "2026-10-03" },
      setup.admin.id,
    );
    const speakers: string[] = [];
    for (const name of ["Joost Bakker", "Els Verhoeven-de Wit", "Priya Raman"])
      speakers.push((await createContent(setup.db, people.id, { name }, setup.admin.id)).contentId);
    const chosen = await createContent(
      setup.db,
      talks.id,
      { title: { nl: "Zand in beweging", en: "Moving sand" }, date: "2026-10-10", speaker: speakers[1] },
      setup.admin.id,
    );
    return { slug: talks.slug, contentId: talk.contentId, chosenId: chosen.contentId };
  });

/**
 * A document whose video is still converting: its media row and jobs written directly, the running job leased and
 * the waiting one due a day ahead, so that no runner takes either (a runner that took the still job found no file
 * and failed the video, under load in CI), and no file behind them (the page shows the status, not the video).
 */
const mediaInProgress = (setup: TourSetup) =>
  setup.once("media-in-progress", async () => {
    const clip = { type: "string", title: "Clip", _ref: "b-video", minWidth: 320, minHeight: 240 };
    const bucket = await createTestBucket(setup.db, {
      name: "Films in progress",
      slug: unique("converting"),
      jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" }, clip } },
    });
    const { rows } = await setup.db.query<{ id: string; contentId: string }>(
      `INSERT INTO media (content_id, kind, bucket_id, storage_key, original_filename, mimetype, size, width, height)
       VALUES (gen_random_uuid(), 'video', $1, 'tour/none', 'dunes.mp4', 'video/mp4', 123456, 320, 240) RETURNING id, content_id AS "contentId"`,
      [bucket.id],
    );
    const media = rows[0]!;
    await setup.db.query(
      `INSERT INTO jobs (media_id, name, status, progress, lease_until, run_after) VALUES
       ($1, 'transcode', 'processing', 70, now() + interval '1 day', now()), ($1, 'still-creation', 'new', 0, NULL, now() + interval '1 day')`,
      [media.id],
    );
    const document = await createContent(setup.db, bucket.id, { title: "Dunes at Schoorl", clip: media.contentId }, setup.admin.id);
    return { slug: bucket.slug, contentId: document.contentId };
  });

/** Another user (for the user pages): answers their id. */
const colleague = (setup: TourSetup) =>
  setup.once("colleague", async () => {
    const user = await createTestUser(setup.db, {
      name: "Marieke van der Berg-Oosterhuis",
      email: `marieke.${Date.now()}@museum.example`,
      permissions: ["user"],
    });
    return { userId: user.id };
  });

const invitation = (setup: TourSetup) =>
  setup.once("invitation", async () => ({ code: (await createInvitation(setup.db, { email: null, permissions: ["user"] })).code }));

/** A valid password reset link for a user of its own. */
const resetToken = (setup: TourSetup) =>
  setup.once("reset", async () => {
    const user = await createTestUser(setup.db);
    const token = randomToken(32);
    await setup.db.query(`INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`, [
      hashToken(token),
      user.id,
    ]);
    return { token };
  });

/** A user who asked for a new password while the installation cannot mail (the tour's server has no SMTP). */
const askedForPassword = (setup: TourSetup) =>
  setup.once("asked-for-password", async () => {
    const user = await createTestUser(setup.db, { name: "Jan-Willem Vergeetachtig", email: `jan-willem.${Date.now()}@museum.example` });
    await setup.db.query("INSERT INTO password_reset_requests (user_id) VALUES ($1)", [user.id]);
    return { userId: user.id };
  });

/** A user of its own for the reset link the tour makes (making one answers any request, so not askedForPassword's). */
const resetLinkUser = (setup: TourSetup) =>
  setup.once("reset-link-user", async () => ({
    userId: (await createTestUser(setup.db, { name: "Femke de Vries", email: `femke.${Date.now()}@museum.example` })).id,
  }));

/** A schema that breaks the exhibitions' documents (title becomes a number, subtitle is removed). */
const BREAKING_SCHEMA = JSON.stringify(
  {
    type: "object",
    required: ["title"],
    properties: { title: { type: "number", title: "Title" }, opensOn: { type: "string", format: "date", title: "Opens on" } },
  },
  null,
  2,
);

/**
 * Webhooks (issue 14): a webhook for a bucket of its own (nobody else saves there, so the dispatcher sends nothing
 * while the tour looks) with a delivery log in every state; a retry is due tomorrow, so it is not sent either.
 */
const webhookWithLog = (setup: TourSetup) =>
  setup.once("webhooks", async () => {
    const bucket = await createTestBucket(setup.db, { name: "Ontvangstbalie" });
    const { rows } = await setup.db.query<{ id: string }>(
      `INSERT INTO webhooks (url, secret, events, all_buckets, bucket_ids, created_by)
       VALUES ('https://hooks.museum-example.org/vitrine/content-changed?source=cms', 'whsec_tour', '{document.saved,document.deleted}', false, ARRAY[$1::uuid], $2)
       RETURNING id`,
      [bucket.id, setup.admin.id],
    );
    const id = rows[0]!.id;
    await setup.db.query(
      `INSERT INTO webhook_deliveries (webhook_id, event, bucket_slug, content_id, version_id, occurred_at, status, attempts, next_attempt_at, last_attempt_at, last_status, last_error, last_response, delivered_at)
       VALUES
         ($1, 'document.saved', $2, gen_random_uuid(), gen_random_uuid(), now() - interval '3 hours', 'delivered', 1, now(), now() - interval '3 hours', 204, NULL, '', now() - interval '3 hours'),
         ($1, 'document.deleted', $2, gen_random_uuid(), gen_random_uuid(), now() - interval '2 hours', 'failed', 8, now(), now() - interval '1 hour', 503, '{"key":"webhooks.deliveryErrors.status","params":{"status":503}}', '<html><body><h1>503 Service Unavailable</h1><p>The exhibit build server is restarting.</p></body></html>', NULL),
         ($1, 'document.saved', $2, gen_random_uuid(), gen_random_uuid(), now() - interval '20 minutes', 'pending', 2, now() + interval '1 day', now() - interval '10 minutes', NULL, '{"key":"webhooks.deliveryErrors.timeout","params":{"seconds":10}}', NULL, NULL)`,
      [id, bucket.slug],
    );
    return { webhookId: id, bucketSlug: bucket.slug };
  });

/**
 * Publishing (docs/publishing.md): an exhibition published, then saved again (changed: Publish and Unpublish), and
 * another published as it is (for the notice after a publish).
 */
const publishedExhibitions = (setup: TourSetup) =>
  setup.once("published-exhibitions", async () => {
    const data = await demoCopy(setup, "exhibitions");
    const bucket = { ...demo("exhibitions").bucket, id: await bucketId(setup.db, data.slug!), slug: data.slug! };
    const actor = { id: setup.admin.id, name: "Tour admin" };
    const documents = await listContents(setup.db, bucket.id, { limit: 2 });
    const [changed, published] = [
      documents.find((doc) => doc.contentId === data.contentId)!,
      documents.find((doc) => doc.contentId !== data.contentId)!,
    ];
    await publishDocument(setup.db, actor, { bucket, contentId: changed.contentId });
    await saveVersion(setup.db, {
      bucketId: bucket.id,
      contentId: changed.contentId,
      baseVersionId: changed.versionId,
      data: { ...changed.data, ticketPrice: 16 },
      userId: setup.admin.id,
    });
    await publishDocument(setup.db, actor, { bucket, contentId: published.contentId });
    return { slug: data.slug!, contentId: changed.contentId, publishedId: published.contentId };
  });

/** An exhibition an editor asked the publishers to review, with a message (docs/publishing.md, Asking for review). */
const reviewAsked = (setup: TourSetup) =>
  setup.once("review-asked", async () => {
    const data = await demoCopy(setup, "exhibitions");
    const bucket = { ...demo("exhibitions").bucket, id: await bucketId(setup.db, data.slug!), slug: data.slug! };
    await askForReview(
      setup.db,
      { id: null, name: "Eva Editor" },
      {
        bucket,
        contentId: data.contentId!,
        versionId: data.versionId!,
        note: "The Dutch subtitle is new, and the opening date moved a week: could you check both before it goes live?",
      },
    );
    return data;
  });

/** A hall referring to two lamps never published: publishing it lists them, ticked to be published with it. */
const hallWithDraftLamps = (setup: TourSetup) =>
  setup.once("hall-with-draft-lamps", async () => {
    const lamps = await createTestBucket(setup.db, { name: "Lamps", slug: unique("lamps") });
    const halls = await createTestBucket(setup.db, {
      name: "Halls",
      slug: unique("halls"),
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          lamps: { type: "array", title: "Lamps", items: { type: "string", _ref: lamps.collectionName } },
        },
      },
    });
    const ceiling = await createContent(setup.db, lamps.id, { title: "Ceiling lamp above the entrance" }, setup.admin.id);
    const spot = await createContent(setup.db, lamps.id, { title: "Spotlight" }, setup.admin.id);
    const hall = await createContent(
      setup.db,
      halls.id,
      { title: "Great hall", lamps: [ceiling.contentId, spot.contentId] },
      setup.admin.id,
    );
    return { slug: halls.slug, contentId: hall.contentId };
  });

/**
 * Releases (docs/publishing.md, Releases): one scheduled a week ahead (a room changed since it was published, a new
 * room, both lit by a lamp never published: the schedule and publish forms offer it), one published, one being put
 * together.
 */
const releases = (setup: TourSetup) =>
  setup.once("releases", async () => {
    const lamps = await createTestBucket(setup.db, { name: "Lamps", slug: unique("release-lamps") });
    const rooms = await createTestBucket(setup.db, {
      name: "Coast rooms",
      slug: unique("coast-rooms"),
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          intro: { type: "string", title: "Introduction" },
          lamp: { type: "string", title: "Lamp", _ref: lamps.collectionName },
        },
      },
    });
    const actor = { id: setup.admin.id, name: "Tour admin" };
    const lamp = await createContent(setup.db, lamps.id, { title: "Chandelier of the north hall" }, setup.admin.id);
    const north = await createContent(setup.db, rooms.id, { title: "North hall", intro: "Paintings of the coast." }, setup.admin.id);
    await publishDocument(setup.db, actor, { bucket: rooms, contentId: north.contentId });
    await saveVersion(setup.db, {
      bucketId: rooms.id,
      contentId: north.contentId,
      baseVersionId: north.versionId,
      data: { title: "North hall, reopened", intro: "Paintings of the coast, rehung for the spring.", lamp: lamp.contentId },
      userId: setup.admin.id,
    });
    const harbour = await createContent(setup.db, rooms.id, { title: "Harbour room", lamp: lamp.contentId }, setup.admin.id);
    const scheduled = await createRelease(setup.db, actor, { name: "Spring opening of the coast rooms" });
    for (const document of [north, harbour])
      await addToRelease(setup.db, actor, scheduled.id, { bucketId: rooms.id, contentId: document.contentId });
    await scheduleRelease(setup.db, actor, scheduled.id, new Date(Date.now() + 7 * 86_400_000));
    const winter = await createContent(setup.db, rooms.id, { title: "Winter garden" }, setup.admin.id);
    const published = await createRelease(setup.db, actor, { name: "Winter lights" });
    await addToRelease(setup.db, actor, published.id, { bucketId: rooms.id, contentId: winter.contentId });
    await publishRelease(setup.db, actor, published.id);
    await createRelease(setup.db, actor, { name: "Summer tour (being put together)" });
    return { scheduledId: scheduled.id, publishedId: published.id, slug: rooms.slug, contentId: north.contentId };
  });

/**
 * The media library (docs/media.md): a bucket of artworks whose images the library lists, one described in both
 * languages and used by a document, one waiting for its alternative texts, one unused.
 */
const mediaLibrary = (setup: TourSetup) =>
  setup.once("media-library", async () => {
    const photo = { type: "string", title: "Photo", _ref: "b-image", minWidth: 1, minHeight: 1 };
    const bucket = await createTestBucket(setup.db, {
      name: "Collection photos",
      slug: unique("collection-photos"),
      locales: ["en", "nl"],
      jsonSchema: { type: "object", properties: { title: { type: "string", title: "Title" }, photo } },
    });
    const send = async (name: string, width: number, height: number) => {
      const response = await upload(
        setup.server.url,
        "image",
        setup.admin.cookie,
        { bucket: bucket.slug, uid: "tour", properties: JSON.stringify(photo) },
        { data: await jpegOfSize(width, height), name },
      );
      if (response.status !== 200) throw new Error(`upload ${name}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as Array<{ contentId: string }>)[0]!.contentId;
    };
    const harbour = await send("harbour-at-dusk-with-a-very-long-file-name-from-the-scanner-0001.jpg", 1600, 900);
    await send("lighthouse-keeper.jpg", 900, 1200);
    await send("dune-landscape.jpg", 1200, 800);
    const buckets = await adminLibraryBuckets(setup);
    await describeMediaItem(setup.db, buckets, harbour, {
      alt: {
        en: "Fishing boats moored in a harbour at dusk, lamps lit on the quay",
        nl: "Vissersboten in een haven bij schemering, lampen aan op de kade",
      },
      caption: { en: "The harbour at dusk, about 1890", nl: "De haven bij schemering, omstreeks 1890" },
      credits: "© Tour Museum, photo: N. Visser",
    });
    await createContent(setup.db, bucket.id, { title: "The harbour at dusk", photo: harbour }, setup.admin.id);
    return { contentId: harbour, slug: bucket.slug, bucketId: bucket.id };
  });

/**
 * The search over everything (issue 34): the library's harbour photo's document, and rooms and a long story that name
 * the harbour, in two more buckets.
 */
const globalSearch = (setup: TourSetup) =>
  setup.once("global-search", async () => {
    await mediaLibrary(setup);
    const rooms = await createTestBucket(setup.db, { name: "Rooms", slug: unique("search-rooms") });
    await createContent(setup.db, rooms.id, { title: "Harbour room (first floor, east wing)" }, setup.admin.id);
    const stories = await createTestBucket(setup.db, {
      name: "Audio guide stories",
      slug: unique("search-stories"),
      jsonSchema: { type: "object", properties: { title: { type: "string" }, text: { type: "string" } } },
    });
    await createContent(
      setup.db,
      stories.id,
      {
        title: "Stop 12: the fishermen",
        text: "Every morning before dawn the fishermen of Scheveningen left the harbour with the tide, and the painters on the dunes watched the fleet go out.",
      },
      setup.admin.id,
    );
    return { query: "harbour" };
  });

/**
 * Documents out and in (issue 34): a museum's CSV (semicolons, Dutch headers) uploaded and checked, checked again with
 * its columns mapped (one row refused for its year), and imported.
 */
const documentImport = (setup: TourSetup) =>
  setup.once("document-import", async () => {
    const bucket = await createTestBucket(setup.db, {
      name: "Collection artworks",
      slug: unique("import-artworks"),
      locales: ["nl", "en"],
      jsonSchema: {
        type: "object",
        "title-key": "title",
        required: ["ref"],
        properties: {
          ref: { type: "string", title: "Inventory number" },
          title: { type: "string", title: "Title", translate: true },
          year: { type: "integer", title: "Year", minimum: 1000 },
          room: { type: "string", title: "Room" },
        },
      },
    });
    const csv = [
      "Inventarisnummer;Titel;Title;Jaar;Zaal",
      "SM-0001;Het strand bij Scheveningen;The beach at Scheveningen;1881;Zaal 2",
      "SM-0002;Duinen bij avond;Dunes at dusk;achttienhonderd;Zaal 2",
      "SM-0003;Vissersboten op het strand, vroeg in de ochtend;Fishing boats on the beach, early in the morning;1885;Zaal 3",
      "SM-0004;Gezicht op Den Haag;View of The Hague;1890;Zaal 3",
    ].join("\n");
    const base = `/b/${bucket.slug}/import`;
    const upload = () => {
      const form = new FormData();
      form.append("file", new Blob([csv], { type: "text/csv" }), "collectie-export-2026.csv");
      return fetch(`${setup.server.url}${base}`, {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: setup.admin.cookie, Origin: setup.server.url },
        body: form,
      });
    };
    const ended = async (response: Response): Promise<string> => {
      const location = response.headers.get("location");
      if (response.status !== 302 || !location) throw new Error(`import step answered ${response.status}`);
      const id = location.split("/").pop();
      const deadline = Date.now() + 30_000;
      while (
        (await setup.db.query<{ status: string }>(`SELECT status FROM import_runs WHERE id = $1`, [id])).rows[0]?.status === "running"
      ) {
        if (Date.now() > deadline) throw new Error(`import run ${id} did not end`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return location;
    };
    // Two uploads of the file: one checked (its page keeps the mapping), one imported (its file then goes).
    const firstCheck = await ended(await upload());
    const imported = await ended(await upload());
    const mapping = {
      "map.Inventarisnummer": "ref",
      "map.Titel": "title.nl",
      "map.Title": "title.en",
      "map.Jaar": "year",
      "map.Zaal": "room",
      key: "ref",
    };
    const checkPath = await ended(await postForm(setup.server.url, firstCheck, { ...mapping, intent: "check" }, setup.admin.cookie));
    const donePath = await ended(await postForm(setup.server.url, imported, { ...mapping, intent: "import" }, setup.admin.cookie));
    return { uploadPath: base, checkPath, donePath, overview: `/b/${bucket.slug}` };
  });

/**
 * The translation round trip (issue 34): the imported collection's texts exported for English, one translation
 * changed and one unit renamed (a problem), uploaded and checked: the check page with its texts to fill and problem.
 */
const translationCheck = (setup: TourSetup) =>
  setup.once("translation-check", async () => {
    const { overview } = await documentImport(setup);
    const exported = await get(setup.server.url, `${overview}/translations/export?locale=en`, setup.admin.cookie);
    if (exported.status !== 200) throw new Error(`translation export answered ${exported.status}`);
    const xliff = (await exported.text())
      .replace("<target>The beach at Scheveningen</target>", "<target>The beach near Scheveningen</target>")
      .replace(/<unit id="title"(?![\s\S]*<unit id="title")/, `<unit id="subtitle"`);
    const form = new FormData();
    form.append("locale", "en");
    form.append("file", new Blob([xliff]), "collection-nl-en.xlf");
    const posted = await fetch(`${setup.server.url}${overview}/translations`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: setup.admin.cookie, Origin: setup.server.url },
      body: form,
    });
    const checkPath = posted.headers.get("location");
    if (posted.status !== 302 || !checkPath) throw new Error(`translation upload answered ${posted.status}`);
    return { overview, checkPath };
  });

/** The library's buckets as the tour's admin sees them. */
const adminLibraryBuckets = (setup: TourSetup) =>
  libraryBuckets(setup.db, { id: setup.admin.id, name: "", email: "", permissions: ["admin"], buckets: null, locale: null }, "en");

/**
 * One use's own texts (docs/media.md): a second document using the harbour photo asked for "Texts for this use": its
 * use item has an English alternative text of its own, the rest shows the library item's (placeholders); the page
 * leads back to that document's form (its draft).
 */
const mediaUseItem = (setup: TourSetup) =>
  setup.once("media-use-item", async () => {
    const library = await mediaLibrary(setup);
    const guide = await createContent(
      setup.db,
      library.bucketId,
      { title: "Audio guide stop 4", photo: library.contentId },
      setup.admin.id,
    );
    const own = (await itemForOwnTexts(setup.db, library.contentId, guide.contentId, setup.admin.id)).contentId;
    const buckets = await adminLibraryBuckets(setup);
    await describeMediaItem(setup.db, buckets, own, {
      alt: { en: "The harbour at dusk, as the guide describes it: boats left, quay lamps right" },
      caption: {},
      credits: "",
    });
    const pick = await createDraft(setup.db, {
      userId: setup.admin.id,
      bucketId: library.bucketId,
      returnPath: `/b/${library.slug}/${guide.contentId}/latest`,
      field: "photo",
      entries: [
        ["title", "Audio guide stop 4"],
        ["photo", own],
      ],
    });
    return { contentId: own, pick };
  });

/**
 * Choosing from the library for a field (docs/media.md): a poster field that asks for at least 1200 × 800 pixels, whose
 * new document's form left for the library (its draft): of the library's three images, the upright one does not fit.
 */
const mediaPick = (setup: TourSetup) =>
  setup.once("media-pick", async () => {
    await mediaLibrary(setup);
    const posters = await createTestBucket(setup.db, {
      name: "Exhibition posters",
      slug: unique("posters"),
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          poster: { type: "string", title: "Poster image", _ref: "b-image", minWidth: 1200, minHeight: 800 },
        },
      },
    });
    const pick = await createDraft(setup.db, {
      userId: setup.admin.id,
      bucketId: posters.id,
      returnPath: `/b/${posters.slug}/new`,
      field: "poster",
      entries: [["title", "Summer exhibition poster"]],
    });
    return { pick };
  });

/** A popup sub-form whose bucket has a portrait field (the library's three images: two fit, the upright one not). */
const libraryDialog = (setup: TourSetup) =>
  setup.once("library-dialog", async () => {
    await mediaLibrary(setup);
    const makers = await createTestBucket(setup.db, {
      name: "Makers",
      slug: unique("makers"),
      jsonSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Name" },
          portrait: { type: "string", title: "Portrait", _ref: "b-image", minWidth: 1000, minHeight: 800 },
        },
      },
    });
    const works = await createTestBucket(setup.db, {
      name: "Works and makers",
      slug: unique("works"),
      jsonSchema: {
        type: "object",
        properties: {
          title: { type: "string", title: "Title" },
          maker: { type: "string", title: "Maker", _ref: makers.collectionName, renderer: "popup" },
        },
      },
    });
    return { slug: works.slug };
  });

/** A bucket with documents in every publication state, for the overview's state column and filter. */
const publicationStates = (setup: TourSetup) =>
  setup.once("publication-states", async () => {
    const bucket = await createTestBucket(setup.db, { name: "Artworks on show", slug: unique("on-show") });
    const actor = { id: setup.admin.id, name: "Tour admin" };
    const titles = [
      "The harbour at dusk",
      "Dune landscape with sheep",
      "Portrait of a lighthouse keeper",
      "Mudflats at low tide",
      "Storm over the dike",
    ];
    for (const [index, title] of titles.entries()) {
      const created = await createContent(setup.db, bucket.id, { title }, setup.admin.id);
      if (index === 4) continue; // a draft
      await publishDocument(setup.db, actor, { bucket, contentId: created.contentId });
      if (index === 1) await unpublishDocument(setup.db, actor, { bucket, contentId: created.contentId });
      if (index === 2)
        await saveVersion(setup.db, {
          bucketId: bucket.id,
          contentId: created.contentId,
          baseVersionId: created.versionId,
          data: { title: `${title} (restored)` },
          userId: setup.admin.id,
        });
    }
    return { slug: bucket.slug };
  });

// ---------------------------------------------------------------------------------------------------------------
// The tour. Screens first (in the order of app/routes.ts), then dialogs.

const TOGETHER_SCHEMA = {
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", title: "Title" },
    year: { type: "integer", title: "Year" },
    place: { type: "string", title: "Place" },
  },
};

/**
 * Editing together (issue 32): a document that two colleagues have open (Anna with unsaved changes, and Marieke),
 * and Anna's session, with which an entry's `open` saves or deletes while the tour's page is open.
 */
const editingTogether = (setup: TourSetup) =>
  setup.once("editing-together", async () => {
    const bucket = await createTestBucket(setup.db, { name: "Harbour paintings", slug: unique("together"), jsonSchema: TOGETHER_SCHEMA });
    const anna = await createTestUser(setup.db, { name: "Anna Bakker", email: `anna.${Date.now()}@museum.example` });
    const { userId: marieke } = await colleague(setup);
    const document = await createContent(
      setup.db,
      bucket.id,
      { title: "Harbour at Scheveningen", year: 1890, place: "Scheveningen" },
      setup.admin.id,
    );
    // Pages of theirs shown a while ago, counting for a day: the tour takes longer than a page shown counts.
    for (const [userId, unsaved, minutes] of [
      [anna.id, true, 12],
      [marieke, false, 4],
    ] as const)
      await setup.db.query(
        `INSERT INTO presence (page_id, bucket_id, content_id, user_id, since, unsaved, expires_at)
         VALUES (gen_random_uuid(), $1, $2, $3, now() - $4 * interval '1 minute', $5, now() + interval '1 day')`,
        [bucket.id, document.contentId, userId, minutes, unsaved],
      );
    const annaCookie = await signIn(setup.server.url, anna.email, anna.password);
    return { slug: bucket.slug, contentId: document.contentId, annaCookie };
  });

/** Anna saves the document's latest version with `changes` (a form post, as her browser would). */
async function annaSaves(page: Page, data: TourData, contentId: string, changes: Record<string, string>): Promise<void> {
  const origin = new URL(page.url()).origin;
  const path = `/b/${data.slug}/${contentId}/latest`;
  const form = await (await get(origin, path, data.annaCookie)).text();
  const fields = ["title", "year", "place"].map((name) => [name, inputValue(form, name) ?? ""] as const);
  const saved = await postForm(
    origin,
    path,
    { __contentId: contentId, __baseVersionId: inputValue(form, "__baseVersionId") ?? "", ...Object.fromEntries(fields), ...changes },
    data.annaCookie,
  );
  if (saved.status !== 302) throw new Error(`Anna's save answered ${saved.status}`);
}

/**
 * A document of its own, opened on the page: photographs in both languages run at once, and a save or deletion of a
 * shared one would change another's picture.
 */
async function openOwnDocument(page: Page, data: TourData): Promise<string> {
  const origin = new URL(page.url()).origin;
  const created = await postForm(
    origin,
    `/b/${data.slug}/new`,
    { __contentId: "", __baseVersionId: "", title: "Harbour by night", year: "1895", place: "Rotterdam" },
    data.annaCookie,
  );
  const path = created.headers.get("location")!.split("?")[0]!;
  await page.goto(path);
  await waitForHydration(page);
  return path.split("/")[3]!;
}

/** Anna deletes the document (the overview's delete). */
async function annaDeletes(page: Page, data: TourData, contentId: string): Promise<void> {
  const origin = new URL(page.url()).origin;
  const form = await (await get(origin, `/b/${data.slug}/${contentId}/latest`, data.annaCookie)).text();
  const deleted = await postForm(
    origin,
    `/b/${data.slug}?index`,
    { intent: "delete", contentId, versionId: inputValue(form, "__baseVersionId") ?? "" },
    data.annaCookie,
  );
  if (deleted.status !== 302) throw new Error(`Anna's delete answered ${deleted.status}`);
}

export const TOUR: TourEntry[] = [
  { name: "home", as: "editor", path: "/" },
  // An editor who typed /settings is sent home, which says why.
  { name: "home-admin-only", as: "editor", path: "/?notice=admin-only" },
  { name: "login", as: "anonymous", path: "/login" },
  { name: "signup", as: "anonymous", setup: invitation, path: (data) => `/signup?code=${data.code}` },
  { name: "no-access", as: "anonymous", path: "/no-access" },
  { name: "password-reset", as: "anonymous", path: "/password-reset" },
  { name: "password-reset-token", as: "anonymous", setup: resetToken, path: (data) => `/password-reset/${data.token}` },
  // Without mail (the tour's server has none), the answer says where the request goes (issue 36).
  { name: "password-reset-requested", as: "anonymous", path: "/password-reset?requested=1", ready: "[data-reset-answer]" },
  { name: "profile", as: "editor", path: "/profile" },
  { name: "style", as: "editor", path: "/style" },
  { name: "support", as: "editor", path: "/support" },
  // The help page the hints and the support page link to (issue 36): screens, the webhook signature, the guides.
  { name: "help", as: "anonymous", path: "/help" },
  // Shareable previews (issue 14): the list (links of every state, the revoke confirmation), a shared document
  // (every common field kind and an image; a video with its poster), the edit page's share panel and its answer.
  { name: "shareables", as: "admin", setup: (setup) => shares(setup), path: "/shareables" },
  { name: "shareables-empty", as: "editor", path: "/shareables" },
  {
    name: "dialog-shareable-revoke",
    as: "admin",
    setup: (setup) => shares(setup),
    path: (data) => `/shareables?revoke=${data.activeId}`,
    ready: "[role=alertdialog]",
    dialog: "[role=alertdialog]",
  },
  {
    name: "shareable-view",
    as: "anonymous",
    setup: (setup) => shares(setup),
    path: (data) => `/shareables/${data.documentToken}`,
    ready: "img.shared-image",
  },
  {
    name: "shareable-view-video",
    as: "anonymous",
    setup: (setup) => shares(setup),
    path: (data) => `/shareables/${data.mediaToken}`,
    ready: "video.shared-video",
  },
  // A link to a release (issue 31): the release's name, its documents listed, each at its release version.
  {
    name: "shareable-release",
    as: "anonymous",
    setup: (setup) => shares(setup),
    path: (data) => `/shareables/${data.releaseToken}`,
    ready: "img.shared-image",
  },
  { name: "shareable-unknown", as: "anonymous", path: "/shareables/bm90LWEtbGluay1vZi1vdXJzLW5vdC1hLWxpbmstb2Ytb3Vycw", status: 404 },
  {
    name: "bucket-edit-share",
    as: "editor",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page, t }) => {
      await page.locator("details.share-panel > summary").click();
      await page
        .locator("details.share-panel")
        .getByRole("button", { name: t("shareables.panel.submit") })
        .click();
      await page.locator("details.share-panel [data-shareable-link]").waitFor();
    },
  },
  {
    name: "shareables-created-no-js",
    as: "editor",
    javaScriptEnabled: false,
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page, t }) => {
      await page.locator("details.share-panel > summary").click();
      await page
        .locator("details.share-panel")
        .getByRole("button", { name: t("shareables.panel.submit") })
        .click();
      await page.locator("[data-shareable-link]").waitFor();
    },
  },

  // The session overviews (issue 13, docs/screens.md): list and grid, the learning sessions' order
  // (moved without JavaScript by buttons), reorder off while searching, the delete confirmation.
  { name: "sessies-overview", as: "editor", setup: sessions, path: (data) => `/sessies/${data.slug}`, ready: ".session-still img" },
  { name: "sessies-overview-grid", as: "editor", setup: sessions, path: (data) => `/sessies/${data.slug}`, open: showGrid },
  {
    name: "dle-sessies-overview",
    as: "editor",
    setup: dleSessions,
    path: (data) => `/dle-sessies/${data.slug}`,
    ready: ".session-still img",
  },
  { name: "dle-sessies-overview-grid", as: "editor", setup: dleSessions, path: (data) => `/dle-sessies/${data.slug}`, open: showGrid },
  {
    name: "dle-sessies-overview-nojs",
    as: "editor",
    setup: dleSessions,
    path: (data) => `/dle-sessies/${data.slug}`,
    ready: ".session-move",
    javaScriptEnabled: false,
  },
  {
    name: "dle-sessies-overview-search",
    as: "editor",
    setup: dleSessions,
    path: (data) => `/dle-sessies/${data.slug}?q=water`,
    ready: ".session-reorder-note",
  },
  {
    name: "dialog-delete-session",
    as: "editor",
    setup: dleSessions,
    path: (data) => `/dle-sessies/${data.slug}?delete=${data.contentId}`,
    ready: "[role=alertdialog]",
    dialog: "[role=alertdialog]",
  },

  // The specialised screens (docs/screens.md) on copies of their demo buckets.
  { name: "sessies-new", as: "editor", setup: sessions, path: (data) => `/sessies/${data.slug}/new` },
  {
    name: "sessies-edit",
    as: "editor",
    setup: sessions,
    path: (data) => `/sessies/${data.slug}/${data.contentId}/latest`,
    ready: ".clip-card img",
  },
  { name: "dle-sessies-new", as: "editor", setup: dleSessions, path: (data) => `/dle-sessies/${data.slug}/new` },
  {
    name: "dle-sessies-edit",
    as: "editor",
    setup: dleSessions,
    path: (data) => `/dle-sessies/${data.slug}/${data.contentId}/latest`,
    ready: ".clip-card img",
  },
  // The session editor (issue 13, sessies and dle-sessies): its preview player and its no-JavaScript page.
  {
    name: "sessies-edit-preview",
    as: "editor",
    setup: sessions,
    path: (data) => `/sessies/${data.slug}/${data.contentId}/latest`,
    ready: ".clip-card img",
    open: async ({ page, t }) => {
      await page.getByRole("button", { name: t("sessionEditor.preview.play") }).click();
      await page.locator("dialog.session-player video").waitFor();
    },
    dialog: "dialog.session-player",
  },
  {
    name: "sessies-edit-nojs",
    as: "editor",
    setup: sessions,
    path: (data) => `/sessies/${data.slug}/${data.contentId}/latest`,
    ready: ".clip-card img",
    javaScriptEnabled: false,
  },
  {
    name: "dle-sessies-edit-nojs",
    as: "editor",
    setup: dleSessions,
    path: (data) => `/dle-sessies/${data.slug}/${data.contentId}/latest`,
    ready: ".clip-card img",
    javaScriptEnabled: false,
  },
  { name: "dle-content-edit", as: "editor", setup: learningEnvironment, path: (data) => `/dle-content/${data.slug}/edit` },
  { name: "dle-content-new", as: "editor", setup: learningEnvironments, path: (data) => `/dle-content/${data.slug}/new` },
  {
    name: "dle-content-version",
    as: "editor",
    setup: learningEnvironments,
    path: (data) => `/dle-content/${data.slug}/${data.contentId}/${data.versionId}`,
  },
  // dle-content (issue 13): without JavaScript the preview shows every locale, one under the other.
  {
    name: "dle-content-edit-nojs",
    as: "editor",
    setup: learningEnvironment,
    path: (data) => `/dle-content/${data.slug}/edit`,
    javaScriptEnabled: false,
    ready: ".dle-preview",
  },
  // The trend screen (issue 13, trend): new, edit (with and without JavaScript), the related trends' add listbox.
  { name: "trend-new", as: "editor", setup: demoTrends, path: (data) => `/trend/${data.slug}/new` },
  {
    name: "trend-edit",
    as: "editor",
    setup: demoTrends,
    path: (data) => `/trend/${data.slug}/${data.contentId}/latest`,
    ready: ".trend-card img",
  },
  {
    name: "trend-edit-nojs",
    as: "editor",
    setup: demoTrends,
    path: (data) => `/trend/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
  },
  {
    name: "trend-edit-add-related",
    as: "editor",
    setup: demoTrends,
    path: (data) => `/trend/${data.slug}/${data.contentId}/latest`,
    ready: ".trend-card img",
    open: async ({ page, t }) => {
      await page
        .locator('[data-field="related"]')
        .getByRole("button", { name: t("trendScreen.list.add") })
        .click();
      await page.locator('[data-field="related"] [role="listbox"] li').first().waitFor();
    },
  },

  { name: "settings", as: "admin", path: "/settings" },
  { name: "settings-invite-user", as: "admin", path: "/settings/invite-user" },
  // Issue 36 (point 14): the activity log with an invitation used and a document created, saved and deleted, each
  // subject a link while it exists (the deleted document's title is plain text).
  {
    name: "activity-log",
    as: "admin",
    setup: (setup) =>
      setup.once("activity-log", async () => {
        const { rows } = await setup.db.query<{ name: string }>("SELECT name FROM users WHERE id = $1", [setup.admin.id]);
        const admin = { id: setup.admin.id, name: rows[0]!.name };
        const bucket = await createTestBucket(setup.db, {
          name: "Paintings",
          names: { nl: "Schilderijen" },
          jsonSchema: { type: "object", properties: { title: { type: "string", translate: true } } },
        });
        const kept = await createContent(
          setup.db,
          bucket.id,
          { title: { en: "View of Scheveningen", nl: "Gezicht op Scheveningen" } },
          admin.id,
        );
        await saveVersion(setup.db, {
          bucketId: bucket.id,
          contentId: kept.contentId,
          baseVersionId: kept.versionId,
          data: { title: { en: "View of Scheveningen at dusk", nl: "Gezicht op Scheveningen bij schemer" } },
          userId: admin.id,
        });
        const gone = await createContent(
          setup.db,
          bucket.id,
          { title: { en: "A sketch withdrawn", nl: "Een ingetrokken schets" } },
          admin.id,
        );
        await deleteContent(setup.db, bucket.id, gone.contentId, gone.versionId, { actor: admin, bucket });
        const newcomer = await createTestUser(setup.db, { name: "Ines Invited", email: "ines.invited@museum.example" });
        const invitation = await createInvitation(setup.db, { email: newcomer.email, createdBy: admin.id });
        await recordActivity(setup.db, newcomer, {
          area: "invitation",
          action: "used",
          subject: newcomer.email,
          details: { id: invitation.id, userId: newcomer.id },
        });
        return {};
      }),
    path: "/settings",
    ready: "table.activity-table",
  },
  { name: "settings-new-client", as: "admin", path: "/settings/new-client" },
  // Issue 36 (item 14b): the once-shown secrets in read-only fields with their Copy buttons.
  {
    name: "settings-invite-user-created",
    as: "admin",
    path: "/settings/invite-user",
    open: async ({ page }) => {
      await Promise.all([
        page.waitForResponse((response) => response.request().method() === "POST"),
        page.locator("form.people-form button[type=submit]").click(),
      ]);
      await page.locator("[data-invitation-link]").waitFor();
    },
  },
  {
    name: "settings-new-client-created",
    as: "admin",
    path: "/settings/new-client",
    open: async ({ page }) => {
      await page.locator("form#new-client input[name=name]").fill("Gallery kiosk");
      await page.locator("form#new-client input[name=read]").first().check();
      await Promise.all([
        page.waitForResponse((response) => response.request().method() === "POST"),
        page.locator("form#new-client button[type=submit]").click(),
      ]);
      await page.locator("[data-client-token]").waitFor();
    },
  },
  // Delivery read API (issue 14): an API client's allowed origins (CORS), its form opened.
  {
    name: "settings-client-origins",
    as: "admin",
    setup: (setup) =>
      setup.once("client-origins", async () => {
        const { client } = await createApiClient(
          setup.db,
          { id: setup.admin.id, name: "Tour admin" },
          {
            name: "Entrance kiosk (web page)",
            readBuckets: ["exhibitions", "artworks"],
            writeBuckets: [],
            allowedOrigins: ["https://kiosk.example.org", "http://localhost:5173"],
            expiresAt: null,
          },
        );
        return { clientId: client.id };
      }),
    path: "/settings/new-client",
    open: async ({ page, data }) => {
      await page.locator(`[data-client="${data.clientId}"] .client-origins > summary`).click();
      await page.locator(`[data-client="${data.clientId}"] .client-origins textarea`).waitFor();
    },
  },
  // Preview clients (issue 31): a client with preview on, just saved (its notice and its card's state and button).
  {
    name: "settings-client-preview",
    as: "admin",
    setup: (setup) =>
      setup.once("client-preview", async () => {
        const { client } = await createApiClient(
          setup.db,
          { id: setup.admin.id, name: "Tour admin" },
          { name: "Test kiosk (preview)", readBuckets: ["exhibitions"], writeBuckets: [], preview: true, expiresAt: null },
        );
        return { clientId: client.id };
      }),
    path: (data) => `/settings/new-client?preview=${data.clientId}`,
    ready: "[data-client-preview=on]",
  },
  { name: "settings-buckets", as: "admin", path: "/settings/buckets" },
  { name: "settings-bucket-import", as: "admin", path: "/settings/buckets/import" },
  { name: "settings-bucket-new", as: "admin", path: "/settings/buckets/new" },
  // Issue 36: a schema nested too deep (the editor's live check), an rjsf schema with $ref (the server's answer to
  // the no-JavaScript post) and an import whose schema nests too deep, each with its one message.
  {
    name: "settings-bucket-schema-too-deep",
    as: "admin",
    path: "/settings/buckets/new",
    ready: ".schema-editor-cm .cm-content",
    open: async ({ page }) => {
      await page.locator(".schema-editor-cm .cm-content").fill(TOO_DEEP_SCHEMA);
      await page.locator("#json-schema-status .schema-errors").waitFor();
    },
  },
  {
    name: "settings-bucket-schema-ref",
    as: "admin",
    path: "/settings/buckets/new",
    javaScriptEnabled: false,
    open: async ({ page }) => {
      const slug = unique("addresses");
      for (const [field, value] of [
        ["name", "Addresses"],
        ["slug", slug],
        ["collectionName", slug],
      ] as const)
        await page.locator(`input[name="${field}"]`).fill(value);
      await page.locator('textarea[name="jsonSchema"]').fill(RJSF_SCHEMA);
      await Promise.all([
        page.waitForResponse((response) => response.request().method() === "POST"),
        page.locator('form.bucket-admin-form button[value="save"]').click(),
      ]);
      await page.locator("#json-schema-status .schema-errors").waitFor();
    },
  },
  {
    name: "settings-bucket-import-too-deep",
    as: "admin",
    path: "/settings/buckets/import",
    javaScriptEnabled: false,
    open: async ({ page }) => {
      await page
        .locator('textarea[name="definition"]')
        .fill(`{"slug":"too-deep","name":"Too deep","collectionName":"too-deep","locales":["en"],"jsonSchema":${TOO_DEEP_SCHEMA}}`);
      await Promise.all([
        page.waitForResponse((response) => response.request().method() === "POST"),
        page.locator('button[name="intent"][value="check"]').click(),
      ]);
      await page.locator("main .form-error").waitFor();
    },
  },
  {
    // A bucket with a name per interface language: the form shows both names; the overview's title is the page's language's.
    name: "settings-bucket-edit-names",
    as: "admin",
    setup: (setup) => namedBucket(setup),
    path: (data) => `/settings/buckets/${data.slug}`,
    ready: ".schema-editor-cm .cm-content",
  },
  { name: "bucket-overview-names", as: "editor", setup: (setup) => namedBucket(setup), path: (data) => `/b/${data.slug}` },
  {
    name: "settings-bucket-edit",
    as: "admin",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/settings/buckets/${data.slug}`,
    ready: ".schema-editor-cm .cm-content",
  },
  {
    name: "settings-bucket-impact",
    as: "admin",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/settings/buckets/${data.slug}/impact`,
  },
  {
    name: "settings-bucket-impact-report",
    as: "admin",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/settings/buckets/${data.slug}/impact`,
    open: async ({ page }) => {
      await page.locator("#impact-schema").fill(BREAKING_SCHEMA);
      await page.locator(".impact-form button[type=submit]").click();
      await page.locator("section.schema-impact").waitFor();
    },
  },
  { name: "settings-users", as: "admin", setup: colleague, path: "/settings/users" },
  { name: "settings-user-edit", as: "admin", setup: colleague, path: (data) => `/settings/users/${data.userId}` },
  // A forgotten password without mail (issue 36): the open requests, a user's request, the reset link made (once).
  { name: "settings-users-reset-requests", as: "admin", setup: askedForPassword, path: "/settings/users", ready: "section.reset-requests" },
  {
    name: "settings-user-reset-request",
    as: "admin",
    setup: askedForPassword,
    path: (data) => `/settings/users/${data.userId}`,
    ready: "[data-reset-request]",
  },
  {
    name: "settings-user-reset-link",
    as: "admin",
    setup: resetLinkUser,
    path: (data) => `/settings/users/${data.userId}`,
    open: async ({ page }) => {
      await page.locator('button[value="resetLink"]').click();
      await page.locator("[data-reset-link]").waitFor();
    },
  },
  {
    name: "settings-user-reset-link-no-js",
    as: "admin",
    javaScriptEnabled: false,
    setup: resetLinkUser,
    path: (data) => `/settings/users/${data.userId}`,
    open: async ({ page }) => {
      await page.locator('button[value="resetLink"]').click();
      await page.locator("[data-reset-link]").waitFor();
    },
  },

  // Webhooks (issue 14): the list, a new one (and its secret shown once), one with its delivery log, the delete dialog.
  { name: "settings-webhooks", as: "admin", setup: webhookWithLog, path: "/settings/webhooks" },
  { name: "settings-webhook-new", as: "admin", path: "/settings/webhooks/new" },
  {
    name: "settings-webhook-created",
    as: "admin",
    setup: webhookWithLog,
    path: "/settings/webhooks/new",
    javaScriptEnabled: false,
    open: async ({ page, data }) => {
      // A public address by number: saving resolves nothing, and only this entry's own bucket is chosen.
      await page.locator('input[name="url"]').fill("https://93.184.215.14/vitrine-hook");
      await page.locator('input[name="scope"][value="some"]').check();
      await page.locator(`input[name="buckets"][value="${data.bucketSlug}"]`).check();
      await Promise.all([page.waitForURL("**/settings/webhooks/new"), page.locator("form.webhook-form button[type=submit]").click()]);
      await page.locator("[data-webhook-secret]").waitFor();
    },
  },
  {
    // With JavaScript the once-shown secret has its Copy button (issue 36).
    name: "settings-webhook-created-copy",
    as: "admin",
    setup: webhookWithLog,
    path: "/settings/webhooks/new",
    open: async ({ page, data }) => {
      await page.locator('input[name="url"]').fill("https://93.184.215.14/vitrine-hook-copy");
      await page.locator('input[name="scope"][value="some"]').check();
      await page.locator(`input[name="buckets"][value="${data.bucketSlug}"]`).check();
      await Promise.all([
        page.waitForResponse((response) => response.request().method() === "POST"),
        page.locator("form.webhook-form button[type=submit]").click(),
      ]);
      await page.locator(".copy-field button").waitFor();
    },
  },
  { name: "settings-webhook-edit", as: "admin", setup: webhookWithLog, path: (data) => `/settings/webhooks/${data.webhookId}` },
  {
    name: "dialog-publish",
    as: "admin",
    setup: publishedExhibitions,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: ".publication-bar .button",
    open: async ({ page, t }) => {
      await page
        .locator(".publication-bar")
        .getByRole("link", { name: t("publishing.publish"), exact: true })
        .click();
      await page.locator("[role=alertdialog]").waitFor();
    },
    dialog: "[role=alertdialog]",
  },
  {
    name: "dialog-publish-references",
    as: "admin",
    setup: hallWithDraftLamps,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: ".publication-bar .button",
    open: async ({ page, t }) => {
      await page
        .locator(".publication-bar")
        .getByRole("link", { name: t("publishing.publish"), exact: true })
        .click();
      await page.locator("[role=alertdialog] .unpublished-references").waitFor();
    },
    dialog: "[role=alertdialog]",
  },
  {
    name: "dialog-delete-webhook",
    as: "admin",
    setup: webhookWithLog,
    path: (data) => `/settings/webhooks/${data.webhookId}?delete`,
    ready: "[role=alertdialog]",
    dialog: "[role=alertdialog]",
  },

  { name: "bucket-overview-list", as: "editor", setup: manyDocuments, path: (data) => `/b/${data.slug}` },
  {
    name: "bucket-overview-grid",
    as: "editor",
    setup: manyDocuments,
    path: (data) => `/b/${data.slug}`,
    open: async ({ page }) => {
      await page.locator('.view-switch button[value="grid"]').click();
      await page.locator('.view-switch button[value="grid"][aria-pressed="true"]').waitFor();
    },
  },
  { name: "bucket-new", as: "editor", setup: (setup) => exhibitions(setup), path: (data) => `/b/${data.slug}/new` },
  { name: "bucket-latest", as: "editor", setup: (setup) => exhibitions(setup), path: (data) => `/b/${data.slug}/${data.contentId}/latest` },
  {
    name: "bucket-latest-nojs",
    as: "editor",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
  },
  // A colour that is not required: chosen (picker and 'Clear colour') here; none ('No colour', 'Choose colour') on bucket-new.
  { name: "bucket-colour-chosen", as: "editor", setup: artists, path: (data) => `/b/${data.slug}/${data.contentId}/latest` },
  {
    name: "bucket-version",
    as: "editor",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/${data.contentId}/${data.firstVersionId}`,
  },
  {
    name: "bucket-duplicate",
    as: "editor",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/duplicate/${data.contentId}/latest`,
  },
  // Issue 36: the duplicate's inline room is a new document with the original's content; without JavaScript too,
  // and a sub-document that cannot be copied refuses the save with the reason under its field.
  {
    name: "bucket-duplicate-no-js",
    as: "editor",
    javaScriptEnabled: false,
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/duplicate/${data.contentId}/latest`,
  },
  {
    name: "bucket-duplicate-copy-refused",
    as: "editor",
    javaScriptEnabled: false,
    setup: brokenHall,
    path: (data) => `/b/${data.slug}/duplicate/${data.contentId}/latest`,
    open: async ({ page }) => {
      await page.locator("form.bucket-form .form-actions button[type=submit]").click();
      await page.locator('[data-field="lamps"] .field-error').first().waitFor();
    },
  },
  { name: "bucket-singleton", as: "editor", setup: singleton, path: (data) => `/b/${data.slug}/edit` },
  {
    name: "bucket-media",
    as: "editor",
    setup: media,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: '[data-field="clip"] [data-status="completed"]',
  },
  {
    // Crop and thumbnail without JavaScript: numeric crop inputs and the stills as radio buttons, inside the form.
    name: "bucket-media-nojs",
    as: "editor",
    setup: media,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
    open: async ({ page }) => {
      for (const summary of await page.locator("details.media-edit-fallback > summary").all()) await summary.click();
    },
  },
  {
    // Without JavaScript nothing polls: a converting video has 'Refresh to see progress' under its status.
    name: "bucket-media-progress-nojs",
    as: "editor",
    setup: mediaInProgress,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
    ready: '[data-field="clip"] .media-refresh',
  },
  {
    name: "bucket-saved",
    as: "editor",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/${data.contentId}/latest?saved`,
  },
  { name: "bucket-overview-deleted", as: "editor", setup: manyDocuments, path: (data) => `/b/${data.slug}?deleted` },
  // Publishing (docs/publishing.md): the state under the title with Publish / Unpublish (admins may publish; the
  // tour's editor may not, and sees the state alone, as on bucket-latest), the notice after a publish, the
  // confirmation page (the dialog's page without JavaScript), and the overview's state column and filter.
  {
    name: "bucket-publication",
    as: "admin",
    setup: publishedExhibitions,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: ".publication-bar .button",
  },
  {
    name: "bucket-published-notice",
    as: "admin",
    setup: publishedExhibitions,
    path: (data) => `/b/${data.slug}/${data.publishedId}/latest?published=published`,
    ready: ".flash-notice",
  },
  {
    name: "bucket-publish-confirm",
    as: "admin",
    javaScriptEnabled: false,
    setup: publishedExhibitions,
    path: (data) => `/b/${data.slug}/${data.contentId}/publish`,
  },
  {
    name: "bucket-unpublish-confirm",
    as: "admin",
    javaScriptEnabled: false,
    setup: publishedExhibitions,
    path: (data) => `/b/${data.slug}/${data.contentId}/publish?intent=unpublish`,
  },
  // Asking for review: the editor's request page (and its refusal of a message too long), the document's page after
  // asking (the editor's notice and Ask again; a publisher's Close request) and a publisher's home page.
  {
    name: "bucket-review-ask",
    as: "editor",
    javaScriptEnabled: false,
    setup: reviewAsked,
    path: (data) => `/b/${data.slug}/${data.contentId}/review`,
  },
  {
    name: "bucket-review-note-too-long",
    as: "editor",
    setup: reviewAsked,
    path: (data) => `/b/${data.slug}/${data.contentId}/review`,
    open: async ({ page }) => {
      await page.locator("textarea[name=note]").evaluate((area: HTMLTextAreaElement) => {
        area.removeAttribute("maxlength");
        area.value = "Please check the labels of every room. ".repeat(30);
      });
      await page.locator(".review-form button[type=submit]").click();
      await page.locator(".review-form .field-error").waitFor();
    },
  },
  {
    name: "bucket-review-asked",
    as: "editor",
    setup: reviewAsked,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest?review=asked`,
    ready: ".publication-review",
  },
  {
    name: "bucket-review-publisher",
    as: "admin",
    setup: reviewAsked,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: ".publication-review",
  },
  { name: "home-reviews", as: "admin", setup: reviewAsked, path: "/", ready: ".home-reviews" },
  // The media library (docs/media.md): the grid, the list, its upload, one item with its texts; without JavaScript too.
  { name: "media-library", as: "admin", setup: mediaLibrary, path: "/media" },
  { name: "media-library-list", as: "admin", setup: mediaLibrary, path: "/media?view=list&sort=name" },
  { name: "media-library-no-js", as: "admin", setup: mediaLibrary, path: "/media?alt=missing", javaScriptEnabled: false },
  { name: "media-library-none", as: "admin", setup: mediaLibrary, path: "/media?q=no-such-media-anywhere" },
  {
    name: "media-library-upload",
    as: "admin",
    setup: mediaLibrary,
    path: "/media",
    open: async ({ page }) => {
      await page.locator("details.media-upload > summary").click();
      await page.locator("details.media-upload[open] form").waitFor();
    },
  },
  { name: "media-item", as: "admin", setup: mediaLibrary, path: (data) => `/media/${data.contentId}` },
  { name: "media-pick", as: "admin", setup: mediaPick, path: (data) => `/media?pick=${data.pick}`, ready: "[data-fits=false]" },
  {
    name: "media-pick-no-js",
    as: "admin",
    setup: mediaPick,
    path: (data) => `/media?pick=${data.pick}&sort=name`,
    javaScriptEnabled: false,
  },
  { name: "media-item-no-js", as: "admin", setup: mediaLibrary, path: (data) => `/media/${data.contentId}`, javaScriptEnabled: false },
  // Documents out and in (issue 34): the upload, a check with its problems and mapping, an import's outcome, and the
  // overview's Export menu.
  { name: "import-upload", as: "admin", setup: documentImport, path: (data) => `${data.uploadPath}` },
  { name: "import-check", as: "admin", setup: documentImport, path: (data) => `${data.checkPath}` },
  { name: "import-done", as: "admin", setup: documentImport, path: (data) => `${data.donePath}` },
  {
    name: "overview-export",
    as: "admin",
    setup: documentImport,
    path: (data) => `${data.overview}`,
    open: async ({ page }) => {
      await page.locator("details.export-menu > summary").click();
      await page.locator("details.export-menu[open] .export-menu-panel").waitFor();
    },
  },
  // Bulk actions (issue 34): the overview's bar and boxes, a delete's confirmation, a field chosen, and a change that
  // every document refuses (a year before 1000) with the reasons listed.
  { name: "overview-bulk", as: "admin", setup: documentImport, path: (data) => `${data.overview}` },
  { name: "bulk-delete", as: "admin", setup: documentImport, path: (data) => `${data.overview}/bulk?action=delete&scope=all` },
  { name: "bulk-set", as: "admin", setup: documentImport, path: (data) => `${data.overview}/bulk?action=set&scope=all&field=room` },
  {
    name: "bulk-outcome",
    as: "admin",
    setup: documentImport,
    path: (data) => `${data.overview}/bulk?action=set&scope=all&field=year`,
    open: async ({ page }) => {
      await page.locator("#bulk-value").fill("900");
      await page.locator("form.bulk-set button[type=submit]").click();
      await page.locator(".bulk-outcome").waitFor();
    },
  },
  // The translation round trip (issue 34): the page (export and upload), and a check with texts to fill and a problem.
  { name: "translations", as: "admin", setup: documentImport, path: (data) => `${data.overview}/translations` },
  { name: "translations-check", as: "admin", setup: translationCheck, path: (data) => `${data.checkPath}`, javaScriptEnabled: false },
  // The search over everything (issue 34): results grouped by bucket, and the page before a search.
  { name: "global-search", as: "admin", setup: globalSearch, path: (data) => `/search?q=${data.query}` },
  { name: "global-search-empty", as: "editor", path: "/search" },
  { name: "media-use-item", as: "admin", setup: mediaUseItem, path: (data) => `/media/${data.contentId}?pick=${data.pick}` },
  // Releases (docs/publishing.md, Releases): the list, a scheduled and a published release, their confirmations, Add to
  // release, and a document's page that names the release it is in.
  { name: "releases", as: "admin", setup: releases, path: "/releases" },
  { name: "release-scheduled", as: "admin", setup: releases, path: (data) => `/releases/${data.scheduledId}` },
  { name: "release-published", as: "admin", setup: releases, path: (data) => `/releases/${data.publishedId}` },
  {
    name: "release-share",
    as: "admin",
    setup: releases,
    path: (data) => `/releases/${data.scheduledId}`,
    open: async ({ page }) => {
      await page.locator("details.release-share > summary").click();
      await page.locator("details.release-share[open] form.share-form").waitFor();
    },
  },
  {
    name: "dialog-release-publish",
    as: "admin",
    setup: releases,
    path: (data) => `/releases/${data.scheduledId}?confirm=publish`,
    ready: "[role=alertdialog]",
    dialog: "[role=alertdialog]",
  },
  {
    name: "dialog-release-rollback",
    as: "admin",
    setup: releases,
    path: (data) => `/releases/${data.publishedId}?confirm=rollback`,
    ready: "[role=alertdialog]",
    dialog: "[role=alertdialog]",
  },
  { name: "release-add", as: "admin", setup: releases, path: (data) => `/b/${data.slug}/${data.contentId}/release` },
  {
    name: "bucket-in-release",
    as: "admin",
    setup: releases,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: ".publication-releases",
  },
  // Editing together (issue 32): who else is here, someone else's save, a merge, a conflict's choice, a deletion.
  {
    name: "bucket-edit-presence",
    as: "editor",
    setup: editingTogether,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: ".presence-editors",
  },
  {
    name: "bucket-edit-presence-no-js",
    as: "editor",
    javaScriptEnabled: false,
    setup: editingTogether,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: ".presence-editors",
  },
  { name: "bucket-overview-editing", as: "editor", setup: editingTogether, path: (data) => `/b/${data.slug}`, ready: ".editing-mark" },
  {
    name: "bucket-edit-someone-saved",
    as: "editor",
    setup: editingTogether,
    path: (data) => `/b/${data.slug}`,
    open: async ({ page, data }) => {
      const contentId = await openOwnDocument(page, data);
      await annaSaves(page, data, contentId, { year: "1896" });
      await page.locator(".presence-saved").waitFor();
    },
  },
  {
    name: "bucket-edit-merged",
    as: "editor",
    setup: editingTogether,
    path: (data) => `/b/${data.slug}`,
    open: async ({ page, data }) => {
      const contentId = await openOwnDocument(page, data);
      await annaSaves(page, data, contentId, { place: "Rotterdam, Oude Haven" });
      await page.locator(".presence-saved").waitFor();
      await page.locator('form.bucket-form [name="title"]').fill("Harbour by night, with lanterns");
      await page.locator("form.bucket-form .form-actions button[type=submit]").click();
      await page.locator(".notice-success", { hasText: "Anna Bakker" }).waitFor();
    },
  },
  {
    name: "bucket-edit-merge-conflict",
    as: "editor",
    setup: editingTogether,
    path: (data) => `/b/${data.slug}`,
    open: async ({ page, data }) => {
      const contentId = await openOwnDocument(page, data);
      await annaSaves(page, data, contentId, { title: "Harbour at dusk" });
      await page.locator(".presence-saved").waitFor();
      await page.locator('form.bucket-form [name="title"]').fill("The harbour of Rotterdam at night, seen from the Maas bridge");
      await page.locator("form.bucket-form .form-actions button[type=submit]").click();
      await page.locator(".merge-conflicts").waitFor();
    },
  },
  {
    name: "bucket-edit-deleted-meanwhile",
    as: "editor",
    setup: editingTogether,
    path: (data) => `/b/${data.slug}`,
    open: async ({ page, data }) => {
      const contentId = await openOwnDocument(page, data);
      await annaDeletes(page, data, contentId);
      await page.locator(".presence-deleted").waitFor();
    },
  },
  {
    name: "bucket-new-deleted-kept",
    as: "editor",
    setup: editingTogether,
    path: (data) => `/b/${data.slug}`,
    open: async ({ page, data }) => {
      const contentId = await openOwnDocument(page, data);
      await page.locator('form.bucket-form [name="title"]').fill("Harbour by night, with lanterns");
      await annaDeletes(page, data, contentId);
      await page.locator(".presence-deleted").waitFor();
      await page.locator("form.bucket-form .form-actions button[type=submit]").click();
      await page.waitForURL(/\/new\?draft=/);
      await page.locator(".notice-warning").first().waitFor();
    },
  },
  { name: "bucket-overview-states", as: "editor", setup: publicationStates, path: (data) => `/b/${data.slug}` },
  { name: "bucket-overview-state-filter", as: "editor", setup: publicationStates, path: (data) => `/b/${data.slug}?state=changed` },
  {
    name: "bucket-history-panel",
    as: "editor",
    setup: history,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page }) => {
      await page.locator("details.history-panel > summary").click();
      await page.locator("details.history-panel .history-entry").first().waitFor();
    },
  },
  {
    // With JavaScript the panel's Compare shows the comparison in the page.
    name: "bucket-history-compare-inline",
    as: "editor",
    setup: history,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page, data }) => {
      await page.locator("details.history-panel > summary").click();
      await page.locator(`details.history-panel .history-entry[data-version="${data.firstVersionId}"] input[name=a]`).check();
      await page.locator("details.history-panel button.history-compare").click();
      await page.locator(".history-inline-compare .diff-table").waitFor();
    },
  },
  { name: "bucket-history", as: "editor", setup: history, path: (data) => `/b/${data.slug}/${data.contentId}/history` },
  { name: "bucket-compare-choose", as: "editor", setup: history, path: (data) => `/b/${data.slug}/${data.contentId}/compare` },
  {
    name: "bucket-compare",
    as: "editor",
    setup: history,
    path: (data) => `/b/${data.slug}/${data.contentId}/compare?a=${data.firstVersionId}&b=${data.versionId}`,
  },
  { name: "bucket-tags", as: "editor", setup: artworks, path: (data) => `/b/${data.slug}/${data.contentId}/latest` },
  {
    name: "bucket-tags-nojs",
    as: "editor",
    setup: artworks,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
  },
  // Issue 36: a stored value the schema refuses, under its message; typed text a number field cannot read.
  { name: "bucket-stored-value", as: "editor", setup: loans, path: (data) => `/b/${data.slug}/${data.contentId}/latest` },
  {
    name: "bucket-number-reverted",
    as: "editor",
    setup: loans,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page }) => {
      await page.locator('[data-field="seats"] input').fill("7.5");
      await page.locator('[data-field="seats"] input').blur();
      await page.locator('[data-field="seats"] .number-reverted:not(:empty)').waitFor();
    },
  },
  {
    name: "bucket-number-refused-nojs",
    as: "editor",
    setup: loans,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
    open: async ({ page }) => {
      await page.locator('[data-field="seats"] input').fill("7.5");
      await page.locator(".form-actions button[type=submit]").click();
      // Before the post only the year of birth has an error: this one is the server's answer.
      await page.locator('[data-field="seats"] .field-error').waitFor();
      await page.waitForLoadState("load");
    },
  },
  // References: a combobox (a large collection), a select whose document was deleted, a reference list, a popup.
  { name: "bucket-references", as: "editor", setup: references, path: (data) => `/b/${data.slug}/${data.contentId}/latest` },
  {
    name: "bucket-references-nojs",
    as: "editor",
    setup: references,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
  },
  {
    // Without JavaScript a large collection's search box re-renders the options.
    name: "bucket-reference-search-nojs",
    as: "editor",
    setup: references,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
    open: async ({ page, t }) => {
      const field = page.locator('[data-field="object"]');
      await field.locator("input[type=search]").fill("print");
      await field.getByRole("button", { name: t("references.searchButton") }).click();
      await page.locator('[data-field="object"] .reference-search .field-note').filter({ hasText: /\d/ }).waitFor();
    },
  },
  {
    // Without JavaScript, a reference list's Add is a new row with a select.
    name: "bucket-reference-list-add-nojs",
    as: "editor",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
    open: async ({ page, t }) => {
      await page
        .locator('[data-field="artworks"]')
        .getByRole("button", { name: t("form.add"), exact: true })
        .click();
      await page.locator('[data-field="artworks"] select').first().waitFor();
    },
  },
  // The popup sub-form without JavaScript: the referenced document's own page, then back with it selected.
  {
    name: "popup-return-page-nojs",
    as: "editor",
    setup: popupRoundTrip,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
    open: async ({ page, t }) => {
      await page
        .locator('[data-field="speaker"]')
        .getByRole("button", { name: t("subForm.createOnPage") })
        .click();
      await page.waitForURL(/\/new\?return=/);
    },
  },
  {
    name: "popup-returned-nojs",
    as: "editor",
    setup: popupRoundTrip,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
    open: async ({ page, t, language }) => {
      await page
        .locator('[data-field="speaker"]')
        .getByRole("button", { name: t("subForm.createOnPage") })
        .click();
      await page.waitForURL(/\/new\?return=/);
      await page.locator('[data-field="name"] input').fill(language === "nl" ? "Marieke de Vries" : "Anna Smith");
      await page.getByRole("button", { name: t("form.save"), exact: true }).click();
      await page.waitForURL(/\?draft=/);
    },
  },
  // The popup field: empty and with a document chosen, with JavaScript ('Edit …', 'Choose existing', 'Clear
  // choice') and without it (the reference select, and buttons to the chosen document's page or a new one's).
  {
    name: "bucket-popup-empty",
    as: "editor",
    setup: popupRoundTrip,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: '[data-field="speaker"] .popup-actions',
  },
  {
    name: "bucket-popup-chosen",
    as: "editor",
    setup: popupRoundTrip,
    path: (data) => `/b/${data.slug}/${data.chosenId}/latest`,
    ready: '[data-field="speaker"] .popup-actions',
  },
  {
    name: "bucket-popup-empty-nojs",
    as: "editor",
    setup: popupRoundTrip,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
  },
  {
    name: "bucket-popup-chosen-nojs",
    as: "editor",
    setup: popupRoundTrip,
    path: (data) => `/b/${data.slug}/${data.chosenId}/latest`,
    javaScriptEnabled: false,
  },
  // Sessions: a reference select, the trend select and the video cases as clip cards.
  {
    name: "bucket-sessions",
    as: "editor",
    setup: sessions,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: ".clip-card img",
  },
  {
    name: "bucket-sessions-nojs",
    as: "editor",
    setup: sessions,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
  },
  {
    // Without JavaScript the add card re-renders the page with the picker as a section of the form.
    name: "bucket-cases-picker-nojs",
    as: "editor",
    setup: sessions,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    javaScriptEnabled: false,
    open: async ({ page }) => {
      await page.locator('[data-field="cases"] .add-card-button').click();
      await page.locator("section.cases-picker").waitFor();
    },
  },
  { name: "error-404", as: "editor", path: "/this-page-does-not-exist", status: 404, ready: ".error-status" },

  // Dialogs.
  {
    name: "dialog-user-menu",
    as: "editor",
    path: "/",
    open: async ({ page }) => {
      await page.locator("details.user-menu > summary").click();
      await page.locator("details.user-menu [role=menu]").waitFor();
    },
    dialog: "details.user-menu [role=menu]",
  },
  { name: "dialog-ie-warning", as: "editor", path: "/", userAgent: IE11_UA, ready: ".modal", dialog: ".modal" },
  {
    name: "dialog-delete-document",
    as: "editor",
    setup: manyDocuments,
    path: (data) => `/b/${data.slug}?delete=${data.contentId}`,
    ready: "[role=alertdialog]",
    dialog: "[role=alertdialog]",
  },
  {
    name: "dialog-set-password",
    as: "admin",
    setup: askedForPassword,
    path: (data) => `/settings/users/${data.userId}?password`,
    ready: "[role=dialog]",
    dialog: "[role=dialog]",
  },
  {
    name: "dialog-delete-user",
    as: "admin",
    setup: colleague,
    path: (data) => `/settings/users/${data.userId}?delete`,
    ready: "[role=alertdialog]",
    dialog: "[role=alertdialog]",
  },
  {
    name: "dialog-popup-sub-form",
    as: "editor",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page }) => {
      await page.locator('[data-field="curator"] button').first().click();
      await page.locator("dialog.bucket-form-modal [data-field]").first().waitFor();
    },
    dialog: "dialog.bucket-form-modal",
  },
  {
    name: "dialog-library-in-sub-form",
    as: "admin",
    setup: libraryDialog,
    path: (data) => `/b/${data.slug}/new`,
    open: async ({ page }) => {
      await page.locator('[data-field="maker"] button').first().click();
      await page.locator('dialog.bucket-form-modal [data-field="portrait"] .media-actions button').last().click();
      await page.locator("dialog.library-dialog [data-fits=false]").first().waitFor();
    },
    dialog: "dialog.library-dialog",
  },
  {
    name: "dialog-delete-where-used",
    as: "editor",
    setup: references,
    path: (data) => `/b/${data.lendersSlug}?delete=${data.usedId}`,
    ready: "[role=alertdialog] .where-used",
    dialog: "[role=alertdialog]",
  },
  {
    name: "dialog-unsaved-changes",
    as: "editor",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page }) => {
      await page.locator('[data-field="ticketPrice"] input').first().fill("17");
      await page.locator("a.brand").click();
      await page.locator("[role=alertdialog]").waitFor();
    },
    dialog: "[role=alertdialog]",
  },
  {
    name: "dialog-reference-picker",
    as: "editor",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page, t }) => {
      await page
        .locator('[data-field="artworks"]')
        .getByRole("button", { name: t("form.add"), exact: true })
        .click();
      await page.locator("dialog.reference-picker li").first().waitFor();
    },
    dialog: "dialog.reference-picker",
  },
  {
    // A popup field's 'Choose existing': the reference picker for one document.
    name: "dialog-popup-choose",
    as: "editor",
    setup: popupRoundTrip,
    path: (data) => `/b/${data.slug}/${data.chosenId}/latest`,
    open: async ({ page, t }) => {
      await page
        .locator('[data-field="speaker"]')
        .getByRole("button", { name: t("subForm.chooseExisting") })
        .click();
      await page.locator("dialog.reference-picker li").first().waitFor();
    },
    dialog: "dialog.reference-picker",
  },
  {
    name: "dialog-reference-combobox",
    as: "editor",
    setup: references,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page }) => {
      const input = page.locator('[data-field="object"] [role=combobox]');
      await input.fill("print");
      // The server's answer, not the first page shown while it searches.
      await page.waitForFunction(() => {
        const options = [...document.querySelectorAll('[data-field="object"] [role=listbox]:not([hidden]) [role=option]')];
        return options.length > 0 && options.every((option) => option.textContent.includes("print"));
      });
    },
  },
  {
    name: "dialog-popup-sub-form-edit",
    as: "editor",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page }) => {
      await page.locator('[data-field="artist"] button').first().click();
      await page.locator("dialog.bucket-form-modal [data-field] input").first().waitFor();
    },
    dialog: "dialog.bucket-form-modal",
  },
  {
    // Closing the popup validates its document: it stays open with the errors.
    name: "dialog-popup-sub-form-errors",
    as: "editor",
    setup: (setup) => exhibitions(setup),
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page, t }) => {
      await page.locator('[data-field="curator"] button').first().click();
      const modal = page.locator("dialog.bucket-form-modal");
      await modal.locator("[data-field] input").first().waitFor();
      await modal.getByRole("button", { name: t("form.submit"), exact: true }).click();
      await modal.locator(".field-error").first().waitFor();
    },
    dialog: "dialog.bucket-form-modal",
  },
  {
    name: "dialog-trend-select",
    as: "editor",
    setup: sessions,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page }) => {
      await page.locator('[data-field="trend"] .trend-select-button').click();
      await page.locator('[data-field="trend"] [role=listbox] [role=option]').first().waitFor();
    },
  },
  {
    name: "dialog-cases-picker",
    as: "editor",
    setup: sessions,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page }) => {
      await page.locator('[data-field="cases"] .add-card-button').click();
      await page.locator("dialog.cases-picker-modal .clip-card img").first().waitFor();
    },
    dialog: "dialog.cases-picker-modal",
  },
  {
    name: "dialog-cases-new",
    as: "editor",
    setup: sessions,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page, t }) => {
      await page.locator('[data-field="cases"] .add-card-button').click();
      await page.locator("dialog.cases-picker-modal .clip-card").first().waitFor();
      await page
        .locator("dialog.cases-picker-modal")
        .getByRole("button", { name: t("cases.newCase") })
        .click();
      await page.locator("dialog.bucket-form-modal [data-field] input").first().waitFor();
    },
    dialog: "dialog.bucket-form-modal",
  },
  {
    name: "dialog-cases-delete",
    as: "editor",
    setup: sessions,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page }) => {
      await page.locator('[data-field="cases"] .add-card-button').click();
      await page.locator("dialog.cases-picker-modal .clip-card button.danger-text").first().click();
      await page.locator("[role=alertdialog]").waitFor();
    },
    dialog: "[role=alertdialog]",
  },
  {
    name: "dialog-media-view-image",
    as: "editor",
    setup: media,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page, t }) => {
      await page
        .locator('[data-field="photo"]')
        .getByRole("button", { name: t("media.view"), exact: true })
        .click();
      await page.locator("dialog.media-preview img").waitFor();
    },
    dialog: "dialog.media-preview",
  },
  {
    name: "dialog-media-crop",
    as: "editor",
    setup: media,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    open: async ({ page }) => {
      await page
        .locator('[data-field="photo"] .media-actions button, [data-field="photo"] button')
        .filter({ hasText: /crop|bijsnijden/i })
        .first()
        .click();
      await page.locator("dialog.crop-modal .cropper img").waitFor();
    },
    dialog: "dialog.crop-modal",
  },
  {
    name: "dialog-media-play-video",
    as: "editor",
    setup: media,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: '[data-field="clip"] [data-status="completed"]',
    open: async ({ page, t }) => {
      await page
        .locator('[data-field="clip"]')
        .getByRole("button", { name: t("media.view"), exact: true })
        .click();
      await page.locator("dialog.media-player video").waitFor();
    },
    dialog: "dialog.media-player",
  },
  {
    name: "dialog-media-thumbnail",
    as: "editor",
    setup: media,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: '[data-field="clip"] [data-status="completed"]',
    open: async ({ page, t }) => {
      await page
        .locator('[data-field="clip"]')
        .getByRole("button", { name: t("media.selectThumbnail") })
        .click();
      await page.locator("dialog.thumb-modal figure img").first().waitFor();
    },
    dialog: "dialog.thumb-modal",
  },
  {
    name: "dialog-media-thumbnail-custom",
    as: "editor",
    setup: media,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: '[data-field="clip"] [data-status="completed"]',
    open: async ({ page, t }) => {
      await page
        .locator('[data-field="clip"]')
        .getByRole("button", { name: t("media.selectThumbnail") })
        .click();
      await page
        .locator("dialog.thumb-modal")
        .getByRole("tab", { name: t("media.customStillTab") })
        .click();
      await page.locator("dialog.thumb-modal .custom-still input[type=file]").waitFor();
    },
    dialog: "dialog.thumb-modal",
  },
  {
    // A custom still smaller than the video: the 'Incorrect Size' question over the thumbnail dialog.
    name: "dialog-media-incorrect-size",
    as: "editor",
    setup: media,
    path: (data) => `/b/${data.slug}/${data.contentId}/latest`,
    ready: '[data-field="clip"] [data-status="completed"]',
    open: async ({ page, t }) => {
      await page
        .locator('[data-field="clip"]')
        .getByRole("button", { name: t("media.selectThumbnail") })
        .click();
      await page
        .locator("dialog.thumb-modal")
        .getByRole("tab", { name: t("media.customStillTab") })
        .click();
      await page
        .locator("dialog.thumb-modal .custom-still input[type=file]")
        .setInputFiles({ name: "small.png", mimeType: "image/png", buffer: await pngOfSize(160, 120) });
      await page.locator('dialog.thumb-modal [role="alertdialog"] h3').waitFor();
    },
    dialog: "dialog.thumb-modal",
  },
];
