import { data, redirect } from "react-router";
import { ContentNotFoundError, deleteContent, VersionConflictError } from "@server/content/store";
import { listOverview } from "@server/content/listing";
import { findWhereUsed } from "@server/content/where-used";
import { HttpError } from "@server/errors";
import { requireBucketAccess } from "@server/web/guards";
import { readForm } from "@server/web/read-form";
import { getRequestState, interfaceBucketName } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { hasOwnOverview, overviewPath, type ScreenName } from "@core/content/screens";
import { titleProperty, titleText } from "@core/content/title";
import { editorsOfDocuments } from "@server/presence/store";
import { hasTranslatedTexts, translationCounts } from "@server/content/translation-status";
import { isUuid } from "@core/ids";
import { isPublicationState } from "@core/content/publication";
import type { Route } from "./+types/bucket-overview";

/*
 * The overview's loader and action, shared with the session overviews (specialised-screens/shared/session-overview.server.ts).
 * In a .server module: a route module's other exports reach the browser build, and these would take the stores'
 * SQL with them (tests/unit/client-build.test.ts).
 */

export const PAGE_SIZE = 20;

export function pageFrom(value: string | null | undefined): number | null {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : null;
}

type OverviewArgs = Pick<Route.LoaderArgs, "request" | "context" | "params">;

/**
 * An overview's search (?q=), publication state filter (?state=), page (?page=, else 1 while searching or filtering,
 * else the page remembered for this bucket), view (list or grid, kept in the session) and the cookie that remembers
 * the page. The session overviews share it.
 */
export async function overviewPage(request: Request, context: OverviewArgs["context"], bucketSlug: string) {
  const url = new URL(request.url);
  const { session } = await getRequestState(request, context);
  const search = url.searchParams.get("q")?.trim() ?? "";
  const asked = url.searchParams.get("state");
  const state = isPublicationState(asked) ? asked : null;
  const remembered = session.get("lastVisitedBucket") === bucketSlug ? (session.get("lastVisitedPageNumber") ?? 1) : 1;
  const page = pageFrom(url.searchParams.get("page")) ?? (search || state || url.searchParams.has("missing") ? 1 : remembered);
  // Signing a cookie costs more than the rest of the loader: only when the remembered page changes.
  const headers = new Headers();
  if (session.get("lastVisitedPageNumber") !== page || session.get("lastVisitedBucket") !== bucketSlug) {
    session.set("lastVisitedPageNumber", page);
    session.set("lastVisitedBucket", bucketSlug);
    headers.set("Set-Cookie", await context.sessionStorage.commitSession(session));
  }
  const view: "list" | "grid" = session.get("indexView") ?? "list";
  return { search, state, page, view, headers };
}

/** The document the delete confirmation asks about (?delete=). */
export function deleteParam(url: URL): string | null {
  const value = url.searchParams.get("delete");
  return isUuid(value ?? undefined) ? value : null;
}

/**
 * A bucket's overview on a screen: the generic one (/b/{bucket}) sends a bucket whose screen has its own overview
 * there; a screen's own overview answers 404 for a bucket of another screen (core/content/screens.ts).
 */
export const overviewLoader = (screen: ScreenName) =>
  pageRoute(async ({ request, context, params }: OverviewArgs) => {
    const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
    if (screen !== "generic" && bucket.screen !== screen) throw new HttpError(404, "errors.notFound");
    if (bucket.singleton || (screen === "generic" && hasOwnOverview(bucket))) throw redirect(overviewPath(bucket));
    const url = new URL(request.url);
    const { search, state, page, view, headers } = await overviewPage(request, context, bucket.slug);
    const titleKey = titleProperty(bucket.jsonSchema);
    // The translation filter (?missing=nl): documents lacking a text in that locale, where the bucket translates.
    const translated = hasTranslatedTexts(bucket);
    const askedMissing = url.searchParams.get("missing");
    const missing = translated && askedMissing && bucket.locales.includes(askedMissing) ? askedMissing : null;
    const { rows, total } = await listOverview(context.db, bucket.id, {
      limit: PAGE_SIZE + 1,
      offset: (page - 1) * PAGE_SIZE,
      search,
      titleKey,
      state,
      missing: missing ? { locale: missing, schema: bucket.jsonSchema } : null,
      withData: translated,
    });
    const confirmDelete = deleteParam(url);
    // The delete confirmation lists the documents that refer to this one (server/content/where-used.ts).
    const whereUsed =
      confirmDelete && rows.some((row) => row.contentId === confirmDelete)
        ? await findWhereUsed(context.db, user, {
            collection: bucket.collectionName,
            contentId: confirmDelete,
            locale: (await getRequestState(request, context)).locale,
          })
        : null;
    const listed = rows.slice(0, PAGE_SIZE);
    // Who else has each listed document open (server/presence/), as of this page's load.
    const editing = await editorsOfDocuments(
      context.db,
      listed.map((row) => row.contentId),
      user.id,
    );
    return data(
      {
        bucket: {
          slug: bucket.slug,
          name: await interfaceBucketName(request, context, bucket),
          singleton: bucket.singleton,
          screen: bucket.screen,
        },
        items: listed.map((row) => ({
          contentId: row.contentId,
          editing: editing[row.contentId] ?? [],
          versionId: row.versionId,
          title: titleText(row.title, bucket.locales),
          updatedAt: row.createdAt.toISOString(),
          state: row.state,
          // Per locale, how many translated texts are filled (a multilingual bucket's column).
          translation: translated ? translationCounts(bucket, row.data) : null,
        })),
        page,
        hasNext: rows.length > PAGE_SIZE,
        pages: total === null ? null : Math.max(1, Math.ceil(total / PAGE_SIZE)),
        total,
        search,
        // The publication state filter (?state=), null for every document.
        state,
        view,
        // Whether the rows carry their translation counts (a bucket with translated texts in more than one locale).
        translated,
        // The translation filter: the locale asked for, and the ones it offers.
        missing,
        locales: translated ? bucket.locales : [],
        confirmDelete,
        whereUsed,
        // After a delete (the action's redirect): the page says so.
        deleted: url.searchParams.has("deleted"),
      },
      { headers },
    );
  });

/** Deletes a document (after the confirm dialog); a stale version is refused, nothing lost. */
export const overviewAction = (screen: ScreenName) =>
  pageRoute(async ({ request, context, params }: Pick<Route.ActionArgs, "request" | "context" | "params">) => {
    const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
    if (screen !== "generic" && bucket.screen !== screen) throw new HttpError(404, "errors.notFound");
    const form = await readForm(request);
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" ? value : "";
    };
    const contentId = text("contentId");
    const versionId = text("versionId");
    if (form.get("intent") !== "delete" || !isUuid(contentId) || !isUuid(versionId)) {
      throw new HttpError(400, "errors.badRequest");
    }
    try {
      await deleteContent(context.db, bucket.id, contentId, versionId, { actor: user, bucket });
    } catch (error) {
      // Gone already (deleted in another tab): what the editor wanted is done.
      if (error instanceof ContentNotFoundError) return redirect(`${overviewPath(bucket)}?deleted`);
      if (error instanceof VersionConflictError) return data({ deleteConflict: true }, { status: 409 });
      throw error;
    }
    return redirect(`${overviewPath(bucket)}?deleted`);
  });
