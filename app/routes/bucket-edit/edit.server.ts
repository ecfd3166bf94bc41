import { data, redirect, type AppLoadContext } from "react-router";
import { mergeNoticeOf } from "@server/content/merge-save";
import { HttpError } from "@server/errors";
import { pageRoute } from "@server/web/respond";
import { ContentNotFoundError, getLatestVersion, getSingletonContent, getVersion, type ContentVersion } from "@server/content/store";
import { hasPermission } from "@server/accounts/users";
import { loadReferenceOptions, loadReferenceTargets } from "@server/content/references";
import { loadClipCardData } from "@server/content/populate";
import { submitBucketForm } from "@server/content/save-form";
import { historyPanel } from "@server/content/history";
import { openReviewOf } from "@server/content/reviews";
import { publicationOf } from "@server/content/publication-state";
import { mayPublish } from "@core/content/publication";
import { isReleaseEditable } from "@core/content/release";
import { releasesOfDocument } from "@server/content/releases";
import { compileBucketSchema } from "@server/content/validator";
import { loadInlineSubForms } from "@server/content/subforms";
import { deletedDocumentNotice, draftFormValue, findDraft } from "@server/content/drafts";
import { BASE_VERSION_FIELD } from "@core/form/resolve";
import { hasMediaField, loadMediaContents } from "@server/media/form-upload";
import { readFormPost } from "@server/web/form-post";
import { requireBucketAccess } from "@server/web/guards";
import { getRequestState } from "@server/web/request-state";
import { documentTitle, markedAsCopy } from "@core/content/title";
import { initialValue, storedFormValue } from "@core/form/kinds";
import { storedDocumentErrors } from "@core/form/resolve";
import { isUuid } from "@core/ids";
import { SUBFORM_FIELD } from "@core/form/subforms";
import { savedDocumentPath, screenPathFor, type DocumentMode, type ScreenName } from "@core/content/screens";
import type { Bucket } from "@server/content/buckets";
import { bucketName } from "@core/content/bucket-name";
import { randomUUID } from "node:crypto";
import { recordPageShown } from "@server/presence/store";

/** Which page of a bucket's document a route module is (app/routes.ts: one module per mode). */
export type EditMode = DocumentMode;

const notFound = () => new HttpError(404, "errors.notFound");

/** What the edit routes' loaders and actions read: /b/:bucket/… with the document's ids where the mode has them. */
interface EditArgs {
  request: Request;
  context: AppLoadContext;
  params: { bucket?: string; contentId?: string; versionId?: string };
}

async function loadVersion(args: EditArgs, bucket: { id: string; singleton: boolean }, mode: EditMode) {
  const { context, params } = args;
  if (mode === "new") return { version: null, latestVersionId: null };
  if (mode === "singleton") {
    if (!bucket.singleton) throw notFound();
    return { version: await getSingletonContent(context.db, bucket.id), latestVersionId: null };
  }
  if (!isUuid(params.contentId)) throw notFound();
  let version: ContentVersion | null;
  let latestVersionId: string | null = null;
  if (mode === "version") {
    if (!isUuid(params.versionId)) throw notFound();
    version = await getVersion(context.db, bucket.id, params.contentId, params.versionId);
    latestVersionId = (await getLatestVersion(context.db, bucket.id, params.contentId))?.versionId ?? null;
  } else {
    version = await getLatestVersion(context.db, bucket.id, params.contentId);
  }
  if (!version) throw notFound();
  return { version, latestVersionId };
}

/**
 * A bucket's pages live on its screen (core/content/screens.ts): a specialised screen's route answers 404 for a
 * bucket of another screen, as for a bucket that does not exist; the generic editor sends a specialised bucket's
 * page to its screen when that screen has one for this mode.
 */
export function requireScreen(bucket: Bucket, screen: ScreenName, mode: EditMode, params: EditArgs["params"]): void {
  if (bucket.screen === screen) return;
  if (screen !== "generic") throw notFound();
  const target = screenPathFor(bucket, mode, params);
  if (target) throw redirect(target);
}

/** The edit page's data in each mode: the bucket, its schema, the version shown (none for a new document). */
async function loadBucketEdit(args: EditArgs, mode: EditMode, screen: ScreenName) {
  const { request, context, params } = args;
  const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
  requireScreen(bucket, screen, mode, params);
  // Validation and media messages in the editor's interface language, like the rest of the page: the configured
  // default locale (spec §5) unless the editor chose another.
  const { locale: messageLocale } = await getRequestState(request, context);
  const compiled = compileBucketSchema(bucket);
  const { version, latestVersionId } = await loadVersion(args, bucket, mode);
  const editing = mode !== "new" && mode !== "duplicate" && version;
  // Who else has the document open, as of now; this page counts for them too (its stream, once open, keeps it so).
  const pageId = randomUUID();
  const presence = editing
    ? {
        pageId,
        latestVersionId: latestVersionId ?? version.versionId,
        editors: await recordPageShown(context.db, { pageId, bucketId: bucket.id, contentId: version.contentId, userId: user.id }),
      }
    : null;
  const search = new URL(request.url).searchParams;
  // Back from a popup sub-form's own page (no JavaScript): the form's unsaved input, the saved document picked.
  const draft = search.has("draft")
    ? await restorableDraft(context, user.id, bucket.id, new URL(request.url).pathname, search.get("draft"))
    : null;
  // On the popup sub-form's own page: after the save, back to the form it was opened from.
  const returnToken = search.has("return") && (await findDraft(context.db, search.get("return"), user.id)) ? search.get("return") : null;
  // A duplicate starts from the original's content, its title marked as a copy in the editor's language.
  const startData = version && mode === "duplicate" ? markedAsCopy(version.data, bucket.jsonSchema, messageLocale) : version?.data;
  const formValue = (draft?.value ?? (startData ? storedFormValue(startData, compiled.schema) : initialValue(compiled.schema))) as Record<
    string,
    unknown
  >;
  // Inline sub-forms: the referenced documents' forms, their values under SUBFORM_FIELD (a document that is gone
  // clears its field). A duplicate's sub-forms are new documents with the original's content: its save makes
  // copies (server/content/duplicate.ts), as it does of the sub-documents no sub-form shows; other references
  // name the same documents.
  const inline = await loadInlineSubForms(context, user, compiled.schema, formValue, { copy: mode === "duplicate" });
  for (const field of inline.cleared) formValue[field] = "";
  if (Object.keys(inline.subForms).length && !draft) formValue[SUBFORM_FIELD] = inline.values;
  const subReferenceOptions = await Promise.all(
    Object.values(inline.subForms).map((sub) =>
      sub.state === "ready" ? loadReferenceOptions(context, user, sub.schema) : Promise.resolve({}),
    ),
  );
  return {
    mode,
    bucket: {
      slug: bucket.slug,
      name: bucketName(bucket, messageLocale),
      singleton: bucket.singleton,
      locales: bucket.locales,
      screen: bucket.screen,
    },
    schema: compiled.schema,
    problems: compiled.problems,
    validatorUrl: compiled.validate ? `/validators/${bucket.slug}/${compiled.hash}` : null,
    messageLocale,
    defaultValue: formValue,
    subForms: inline.subForms,
    // A duplicate is a new document: its page does not say it edits the original.
    title: version && mode !== "duplicate" ? documentTitle(version.data, bucket.jsonSchema, bucket.locales) : "",
    contentId: editing ? version.contentId : null,
    versionId: editing ? version.versionId : null,
    latestVersionId: latestVersionId && latestVersionId !== version.versionId ? latestVersionId : null,
    saved: search.has("saved"),
    // Saved by merging with someone else's save meanwhile: whose changes to which fields were taken.
    merged: editing && search.has("merged") ? await mergeNoticeOf(context.db, compiled.schema, version.contentId, version.versionId) : null,
    // After a restore from the history: the restored version's number, for "Version 2 restored".
    restored: /^[1-9]\d{0,8}$/.test(search.get("restored") ?? "") ? Number(search.get("restored")) : null,
    // A restored draft: its base version (a save after someone else's is a conflict), and whether it was found.
    // The input of a form whose document someone else deleted meanwhile is such a draft, on a new document's page:
    // its notice says so.
    draft: search.has("draft")
      ? {
          restored: draft !== null,
          baseVersionId: draft?.baseVersionId ?? null,
          notice: draft !== null && search.has("deleted") ? deletedDocumentNotice(messageLocale) : undefined,
        }
      : null,
    returnToken,
    cancelReturn: returnToken
      ? `${(await findDraft(context.db, returnToken, user.id))?.returnPath ?? ""}?draft=${encodeURIComponent(returnToken)}`
      : null,
    // A document saved under an earlier schema may no longer fit the current one: its errors show at once.
    storedErrors: editing ? storedDocumentErrors(version.data, compiled.schema, compiled.validate, messageLocale) : null,
    referenceOptions: Object.assign({}, ...subReferenceOptions, await loadReferenceOptions(context, user, compiled.schema)) as Awaited<
      ReturnType<typeof loadReferenceOptions>
    >,
    // The titles of the documents the form refers to (a large collection lists only its first page), or deleted.
    referenceTargets: version ? await loadReferenceTargets(context, user, compiled.schema, version.data) : {},
    // Video-cases and trend-select fields: their collections' cases as clip cards, trends with their images.
    clipCards: await loadClipCardData(context, user, compiled.schema),
    canEditTextIds: hasPermission(user, "admin") || hasPermission(user, "dev"),
    // Media fields: the form is multipart so that a file input works without JavaScript; the document's media
    // are loaded so that their state (processing, error) shows on the first render.
    multipart: hasMediaField(compiled.schema),
    // A restored draft's media too (an item chosen in the library for one of its fields).
    media: draft || version ? await loadMediaContents(context, user, compiled.schema, draft ? formValue : version?.data) : {},
    videoProcessing: context.media.ffmpeg !== null,
    presence,
    // The version history panel (app/components/history/): the first page of the document's versions.
    history: editing ? await historyPanel(context.db, { user, bucket }, version.contentId) : null,
    // What exhibits get of this document (docs/publishing.md), and whether this editor may change it.
    publication: editing ? await publicationOf(context.db, bucket.id, version.contentId) : null,
    canPublish: mayPublish(user.permissions),
    // The releases that will change what exhibits get of it (open or scheduled), for those who may publish.
    releases:
      editing && mayPublish(user.permissions)
        ? (await releasesOfDocument(context.db, version.contentId))
            .filter((release) => isReleaseEditable(release.state))
            .map((release) => ({ id: release.id, name: release.name, state: release.state }))
        : [],
    // The open request for review (docs/publishing.md), shown to everyone who opens the document.
    review: editing ? await openReviewOf(context.db, version.contentId) : null,
    // After a request for review was made or closed (the redirect of /b/{bucket}/{id}/review): which, for the notice.
    reviewNotice: ((notice) => (notice === "asked" || notice === "closed" ? notice : null))(search.get("review")),
    // After a publish or an unpublish (the redirect of /b/{bucket}/{id}/publish): which, for the notice.
    publishedNotice: ((notice) => (notice === "published" || notice === "unpublished" ? notice : null))(search.get("published")),
  };
}

/** The user's draft for this form's page, as its starting value; null when it expired or is not theirs. */
async function restorableDraft(context: AppLoadContext, userId: string, bucketId: string, pathname: string, token: string | null) {
  const draft = await findDraft(context.db, token, userId);
  if (!draft || draft.bucketId !== bucketId || draft.returnPath !== pathname) return null;
  const baseVersionId = draft.entries.find(([name]) => name === BASE_VERSION_FIELD)?.[1] ?? null;
  return { value: draftFormValue(draft), baseVersionId: isUuid(baseVersionId ?? undefined) ? baseVersionId : null };
}

export type BucketEditData = Awaited<ReturnType<typeof loadBucketEdit>>;

/** The mode of a page: fixed by its route module, or read from its URL (a screen's /{contentId}/{latest|versionId}). */
type ModeOf = EditMode | ((params: EditArgs["params"]) => EditMode);

/** /{screen}/{bucket}/{contentId}/latest is the latest version, any other last segment a version's id. */
export const latestOrVersion = (params: EditArgs["params"]): EditMode => (params.versionId === "latest" ? "latest" : "version");

/**
 * The loader of the edit page in one mode (each mode is a route module of its own: app/routes.ts), on a screen.
 * A specialised screen adds its own data with `extra`, read after the generic data (and its guards).
 */
export function bucketEditLoader(mode: ModeOf): (args: EditArgs) => Promise<BucketEditData>;
export function bucketEditLoader<T>(
  mode: ModeOf,
  screen: ScreenName,
  extra?: (args: EditArgs, base: BucketEditData) => Promise<T>,
): (args: EditArgs) => Promise<BucketEditData & { screenData: T }>;
export function bucketEditLoader<T>(
  mode: ModeOf,
  screen: ScreenName = "generic",
  extra?: (args: EditArgs, base: BucketEditData) => Promise<T>,
) {
  return pageRoute(async (args: EditArgs) => {
    const base = await loadBucketEdit(args, typeof mode === "function" ? mode(args.params) : mode, screen);
    return { ...base, screenData: extra ? await extra(args, base) : undefined };
  });
}

/**
 * A post of the edit form in any mode, on a screen: the save pipeline, then the saved document's page or the form
 * again. A duplicate's post names its original (the URL's contentId), whose inline sub-documents the copy gets copies of.
 */
export const bucketEditAction = (screen: ScreenName, mode?: "duplicate") =>
  pageRoute(async ({ request, context, params }: EditArgs) => {
    const target = await requireBucketAccess(request, context, params.bucket);
    // A post to another screen's route is refused like its page; the generic route saves any bucket's documents.
    if (screen !== "generic" && target.bucket.screen !== screen) throw notFound();
    try {
      const duplicateOf = mode === "duplicate" && isUuid(params.contentId) ? params.contentId : undefined;
      const { locale } = await getRequestState(request, context);
      const post = await readFormPost(request, context.media.storage, compileBucketSchema(target.bucket).schema);
      const path = new URL(request.url).pathname;
      const outcome = await submitBucketForm(context, post, { ...target, locale, path }, { duplicateOf });
      if (!outcome.saved) return "leaveTo" in outcome ? redirect(outcome.leaveTo) : data(outcome.reply, { status: outcome.status });
      if (outcome.returnTo) return redirect(outcome.returnTo);
      return redirect(`${savedDocumentPath(target.bucket, outcome.version.contentId)}?saved${outcome.merged ? "&merged" : ""}`);
    } catch (error) {
      if (error instanceof ContentNotFoundError) throw notFound();
      throw error;
    }
  });

export const submitBucketEdit = bucketEditAction("generic");
export const submitDuplicate = bucketEditAction("generic", "duplicate");
