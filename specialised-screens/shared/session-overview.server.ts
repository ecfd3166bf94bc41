import { data, redirect, type AppLoadContext } from "react-router";
import { deleteParam, overviewAction, overviewPage, PAGE_SIZE, pageFrom } from "~/routes/bucket-overview.server";
import { listSessions, moveSession, MoveRefusedError, sessionCards, today } from "./sessions.server";
import { findWhereUsed } from "@server/content/where-used";
import { requireBucketAccess } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { pageRoute } from "@server/web/respond";
import { overviewPath } from "@core/content/screens";
import type { MoveTarget } from "./session-overview";
import { isUuid } from "@core/ids";
import { getRequestState, interfaceBucketName } from "@server/web/request-state";

/*
 * The session overviews (docs/screens.md): the generic overview's guards, search, paging, view and
 * delete, with sessions as clip cards; a learning environment's sessions (dle-sessies) in their stored order, moved
 * with buttons (a form post, then back to the same page) or, with JavaScript, by dragging (the same post by a fetcher).
 */

export type SessionScreen = "sessies" | "dle-sessies";
/** Both overviews' routes have the same arguments (/{screen}/:bucket). */
interface Args {
  request: Request;
  context: AppLoadContext;
  params: { bucket: string };
}

async function guard({ request, context, params }: Args, screen: SessionScreen) {
  const access = await requireBucketAccess(request, context, params.bucket);
  if (access.bucket.screen !== screen || access.bucket.singleton) throw new HttpError(404, "errors.notFound");
  return access;
}

export const sessionOverviewLoader = (screen: SessionScreen) =>
  pageRoute(async (args: Args) => {
    const { user, bucket } = await guard(args, screen);
    const { db } = args.context;
    const url = new URL(args.request.url);
    const { search, state, page, view, headers } = await overviewPage(args.request, args.context, bucket.slug);
    const ordered = screen === "dle-sessies";
    // With the order stored, the session before the page and the one after it come too: a move across the page's
    // edge names its neighbour there.
    const offset = (page - 1) * PAGE_SIZE;
    const before = ordered && offset > 0 ? 1 : 0;
    const { rows, total } = await listSessions(db, bucket.id, {
      limit: PAGE_SIZE + 1 + before,
      offset: offset - before,
      search,
      state,
      ordered,
    });
    const pageRows = rows.slice(before, before + PAGE_SIZE);
    const cards = await sessionCards(db, user, bucket, pageRows, { availability: ordered, today: today() });
    const confirmDelete = deleteParam(url);
    const whereUsed =
      confirmDelete && cards.some((card) => card.contentId === confirmDelete)
        ? await findWhereUsed(db, user, {
            collection: bucket.collectionName,
            contentId: confirmDelete,
            locale: (await getRequestState(args.request, args.context)).locale,
          })
        : null;
    return data(
      {
        bucket: {
          slug: bucket.slug,
          name: await interfaceBucketName(args.request, args.context, bucket),
          singleton: bucket.singleton,
          screen: bucket.screen,
        },
        cards,
        page,
        hasNext: rows.length > before + PAGE_SIZE,
        pages: total === null ? null : Math.max(1, Math.ceil(total / PAGE_SIZE)),
        search,
        // The publication state filter (?state=), null for every session.
        state,
        view,
        confirmDelete,
        whereUsed,
        deleted: url.searchParams.has("deleted"),
        // Reordering (dle-sessies): off while searching or filtering, since the list then leaves sessions out.
        reorder: ordered
          ? {
              enabled: !search && !state,
              previousId: before ? (rows[0]?.contentId ?? null) : null,
              nextId: rows[before + PAGE_SIZE]?.contentId ?? null,
            }
          : null,
      },
      { headers },
    );
  });

/** Moves a session (intent=move: contentId and before or after, the neighbour the editor saw); else the generic delete. */
export const sessionOverviewAction = (screen: SessionScreen) => {
  const generic = overviewAction(screen);
  return pageRoute(async (args: Args) => {
    const { bucket } = await guard(args, screen);
    const form = await args.request.clone().formData();
    if (form.get("intent") !== "move") return generic(args);
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" ? value : "";
    };
    const contentId = text("contentId");
    const target: MoveTarget | null = isUuid(text("before"))
      ? { before: text("before") }
      : isUuid(text("after"))
        ? { after: text("after") }
        : null;
    if (screen !== "dle-sessies" || !isUuid(contentId) || !target) throw new HttpError(400, "errors.badRequest");
    try {
      await moveSession(args.context.db, bucket.id, contentId, target);
    } catch (error) {
      if (error instanceof MoveRefusedError) return data({ moveRefused: true as const }, { status: 409 });
      throw error;
    }
    // A fetcher (JavaScript) stays on the page, whose data is read again; a form post goes back to the same page.
    if (form.get("js") === "1") return data({ moved: contentId });
    const page = pageFrom(new URL(args.request.url).searchParams.get("page"));
    return redirect(`${overviewPath(bucket)}${page ? `?page=${page}` : ""}`);
  });
};
