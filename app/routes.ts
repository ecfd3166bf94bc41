import { existsSync, readdirSync } from "node:fs";
import { index, route, type RouteConfig, type RouteConfigEntry } from "@react-router/dev/routes";

/*
 * React Router reads this file before the path aliases exist, so it imports relative paths only: each specialised
 * screen's pages come from its folder's routes.ts (specialised-screens/{name}/routes.ts), found by listing the folders.
 */
const screensFolder = new URL("../specialised-screens/", import.meta.url);
const screenRoutes = (
  await Promise.all(
    readdirSync(screensFolder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(new URL(`${entry.name}/routes.ts`, screensFolder)))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(async ({ name }) => ((await import(`../specialised-screens/${name}/routes.ts`)) as { default: RouteConfigEntry[] }).default),
  )
).flat();

/** The whole map of the product (spec §2). */
export default [
  index("routes/home.tsx"),
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.tsx"),
  route("signup", "routes/signup.tsx"),
  route("no-access", "routes/no-access.tsx"),
  route("password-reset", "routes/password-reset/request.tsx"),
  route("password-reset/:id", "routes/password-reset/token.tsx"),
  route("profile", "routes/profile.tsx"),
  route("style", "routes/style.tsx"),
  route("support", "routes/support.tsx"),
  route("help", "routes/help.tsx"),
  route("search", "routes/search.tsx"), // one search over every visible bucket (issue 34)
  // Shareable previews: the links a user made (and the form posts), one link's read-only page and its media.
  route("shareables", "routes/shareables/list.tsx"),
  route("shareables/:token", "routes/shareables/view.tsx"),
  route("shareables/:token/media/:contentId", "routes/shareables/media.ts"),
  route("shareables/:token/media/:contentId/poster", "routes/shareables/poster.ts"),

  // The media library (docs/media.md): the list (and its upload), one item (and a new file for it).
  route("media/:contentId?", "routes/media/library.tsx"),

  // Releases (docs/publishing.md): the list, one release's page and its actions.
  route("releases", "routes/releases/list.tsx"),
  route("releases/:releaseId", "routes/releases/release.tsx"),

  route("settings", "routes/settings.tsx", [
    index("routes/settings/index.tsx"),
    route("invite-user", "routes/settings/invite-user.tsx"),
    route("new-client", "routes/settings/new-client.tsx"),
    route("buckets", "routes/settings/buckets.tsx"),
    route("buckets/import", "routes/settings/bucket-import.tsx"),
    route("buckets/:slug", "routes/settings/bucket.tsx"),
    route("buckets/:slug/export", "routes/settings/bucket-export.ts"),
    route("users", "routes/settings/users.tsx"),
    route("users/:id", "routes/settings/user-edit.tsx"),
    route("webhooks", "routes/settings/webhooks.tsx"),
    route("webhooks/new", "routes/settings/webhook-new.tsx"),
    route("webhooks/:id", "routes/settings/webhook.tsx"),
    // The impact preview of a schema change: the page (and its no-JavaScript post), and its NDJSON stream.
    route("buckets/:slug/impact", "routes/settings/bucket-impact.tsx"),
    route("buckets/:slug/impact/stream", "routes/settings/bucket-impact-stream.ts"),
  ]),

  route("b/:bucket", "routes/bucket.tsx", [
    index("routes/bucket-overview.tsx"),
    // The document's page in each mode: one small module per mode over shared code (routes/bucket-edit/).
    route("new", "routes/bucket-edit/new.tsx", { id: "bucket-new" }),
    route("edit", "routes/bucket-edit/singleton.tsx", { id: "bucket-edit" }),
    // Documents out and in (issue 34): the export, an import's upload and its runs.
    route("export", "routes/bucket-transfer/export.ts", { id: "bucket-export" }),
    route("import", "routes/bucket-transfer/import.tsx", { id: "bucket-import" }),
    route("import/:runId", "routes/bucket-transfer/import-run.tsx", { id: "bucket-import-run" }),
    route("import/:runId/problems", "routes/bucket-transfer/import-problems.ts", { id: "bucket-import-problems" }),
    // The translation round trip (issue 34): the page (XLIFF download, upload, check, fill) and the download.
    route("translations", "routes/bucket-transfer/translations.tsx", { id: "bucket-translations" }),
    route("translations/export", "routes/bucket-transfer/translations-export.ts", { id: "bucket-translations-export" }),
    // Bulk actions over the documents the overview selected (issue 34).
    route("bulk", "routes/bucket-bulk/bulk.tsx", { id: "bucket-bulk" }),
    route("duplicate/:contentId/latest", "routes/bucket-edit/duplicate.tsx", { id: "bucket-duplicate" }),
    route(":contentId/latest", "routes/bucket-edit/latest.tsx", { id: "bucket-latest" }),
    // A document's versions (list, restore) and two of them compared: static segments, ranked before :versionId.
    route(":contentId/history", "routes/bucket-history/history.tsx", { id: "bucket-history" }),
    route(":contentId/compare", "routes/bucket-history/compare.tsx", { id: "bucket-compare" }),
    route(":contentId/publish", "routes/bucket-publish/publish.tsx", { id: "bucket-publish" }),
    route(":contentId/release", "routes/bucket-release/add.tsx", { id: "bucket-release" }),
    route(":contentId/review", "routes/bucket-review/review.tsx", { id: "bucket-review" }),
    // Who else has the document open: the edit page's event stream, and its unsaved-changes flag (issue 32).
    route(":contentId/presence", "routes/bucket-presence.ts", { id: "presence" }),
    route(":contentId/:versionId", "routes/bucket-edit/version.tsx", { id: "bucket-version" }),
    route("form/:contentId?/:versionId?", "routes/legacy/bucket-form.tsx"),
  ]),

  // Specialised bucket screens (docs/screens.md): each screen's pages, from its folder's routes.ts.
  ...screenRoutes,

  // Legacy optional-parameter forms, kept as redirects to their current routes.
  route("overview/:bucket?", "routes/legacy/overview.tsx"),
  route("dle-content-form/:bucket?/:contentId?/:versionId?", "routes/legacy/specialised/dle-content-form.ts"),
  route("dle-sessies-form/:bucket?/:contentId?/:versionId?", "routes/legacy/specialised/dle-sessies-form.ts"),
  route("sessies-form/:bucket?/:contentId?/:versionId?", "routes/legacy/specialised/sessies-form.ts"),
  route("trend-form/:bucket?/:contentId?/:versionId?", "routes/legacy/specialised/trend-form.ts"),
  route("dle-sessies-index/:bucket?", "routes/legacy/specialised/dle-sessies-index.ts"),
  route("sessies-index/:bucket?", "routes/legacy/specialised/sessies-index.ts"),

  // Calls (spec §7).
  route("auth/login", "routes/api/auth-login.ts"),
  route("auth/signup", "routes/api/auth-signup.ts"),
  route("internet-explorer/hide", "routes/api/ie-hide.ts"),
  route("session/index-view", "routes/api/index-view.ts"),
  route("session/locale", "routes/api/locale.ts"),
  route("validators/:bucket/:hash", "routes/api/validator.ts"),
  route("api/v1/buckets/any/content", "routes/api/any-content.ts"),
  route("api/v1/buckets/:slug/save", "routes/api/bucket-save.ts"),
  route("api/v1/buckets/:slug/schema", "routes/api/bucket-schema.ts"),
  route("api/v1/buckets/:slug/content/:contentId/:versionId", "routes/api/bucket-content.ts"),
  route("api/v1/buckets/image/content/:contentId/:versionId", "routes/api/media-content/image.ts"),
  route("api/v1/buckets/video/content/:contentId/:versionId", "routes/api/media-content/video.ts"),
  route("api/v1/buckets/file/content/:contentId/:versionId", "routes/api/media-content/file.ts"),
  // Media edits: before api/v1/media/:kind/:contentId and the api/* catch-all.
  route("api/v1/media/library", "routes/api/media-library.ts"),
  route("api/v1/media/image/crop/:id", "routes/api/media-crop.ts"),
  route("api/v1/media/video/:id/thumb", "routes/api/media-thumb.ts"),
  route("api/v1/media/:contentId/still", "routes/api/media-custom-still.ts"),
  route("api/v1/media/:kind/upload", "routes/api/media-upload.ts"),
  route("api/v1/media/:kind/:contentId", "routes/api/media-file.ts"),
  route("api/v1/still/:contentId/:index", "routes/api/still.ts"),
  // The delivery read API for exhibit apps (issue 14, docs/delivery.md).
  route("api/v1/delivery/buckets", "routes/api/delivery/buckets.ts"),
  route("api/v1/delivery/buckets/:slug/documents", "routes/api/delivery/documents.ts"),
  route("api/v1/delivery/buckets/:slug/documents/:contentId", "routes/api/delivery/document.ts"),
  route("api/v1/delivery/buckets/:slug/singleton", "routes/api/delivery/singleton.ts"),
  route("api/v1/delivery/openapi.json", "routes/api/delivery/openapi.ts"),
  route("api/v1/delivery/media/:contentId/:file", "routes/api/delivery/media.ts"),
  route("api/v1/delivery/bundle", "routes/api/delivery/bundle.ts"), // offline bundles (issue 14, docs/bundles.md)
  route("api/v1/delivery/*", "routes/api/delivery/not-found.ts"),
  route("api/*", "routes/api/not-found.ts"),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
