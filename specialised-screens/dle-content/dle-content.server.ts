import { redirect, type AppLoadContext } from "react-router";
import { bucketEditLoader, latestOrVersion, type EditMode } from "~/routes/bucket-edit/edit.server";
import { loadEnvironmentSessions } from "./environment-sessions.server";
import { requireBucketAccess, requireUser } from "@server/web/guards";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { overviewPath, singletonPath } from "@core/content/screens";

interface Args {
  request: Request;
  context: AppLoadContext;
  params: { bucket?: string; contentId?: string; versionId?: string };
}

/** What the dle-content screen adds to the edit page's data: the links to the environment's sessions. */
async function environmentData({ request, context }: Args) {
  const user = await requireUser(request, context);
  const { locale } = await getRequestState(request, context);
  return { sessions: await loadEnvironmentSessions(context.db, user, locale) };
}

/** /dle-content/{bucket}/edit is the singleton's page, /dle-content/{bucket}/{contentId}/{latest|versionId} a version's. */
export const singletonOrVersion = (params: Args["params"]): EditMode => (params.contentId ? latestOrVersion(params) : "singleton");

/**
 * The edit page's loader on the dle-content screen. A singleton has one document, so its `new` page is its
 * `edit` page (created on its first save) and a bucket of several environments has no `edit` page: its list is
 * where to pick one. Both redirect only after the guards, so a hidden bucket still answers 404.
 */
export function dleContentLoader(mode: EditMode | ((params: Args["params"]) => EditMode)) {
  const load = bucketEditLoader(mode, "dle-content", environmentData);
  return pageRoute(async (args: Args) => {
    const { bucket } = await requireBucketAccess(args.request, args.context, args.params.bucket);
    const modeNow = typeof mode === "function" ? mode(args.params) : mode;
    // The query goes along: a popup sub-form's own page (?return=…) keeps its way back.
    if (bucket.screen === "dle-content" && modeNow === "new" && bucket.singleton)
      throw redirect(`${singletonPath(bucket)}${new URL(args.request.url).search}`);
    if (bucket.screen === "dle-content" && modeNow === "singleton" && !bucket.singleton) throw redirect(overviewPath(bucket));
    return load(args);
  });
}

export type DleContentData = Awaited<ReturnType<ReturnType<typeof dleContentLoader>>>;
