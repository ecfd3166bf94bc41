import { apiRoute, methodNotAllowed } from "@server/web/respond";
import { requireBucketAccess } from "@server/web/guards";
import { formText, readForm } from "@server/web/read-form";
import { eventStreamResponse } from "@server/web/event-stream";
import { HttpError } from "@server/errors";
import { getLatestVersion } from "@server/content/store";
import { pageShown, setUnsaved } from "@server/presence/store";
import { isUuid } from "@core/ids";
import { PRESENCE_EVENTS, PRESENCE_PAGE_FIELD, PRESENCE_SINCE_FIELD, PRESENCE_UNSAVED_FIELD } from "@core/content/presence";
import type { Route } from "./+types/bucket-presence";

/*
 * /b/{bucket}/{contentId}/presence?page={pageId} (issue 32, docs/architecture.md "Presence"): GET is the event
 * stream of who else has the document open (and of its saves and deletion) for the edit page `pageId` the loader
 * recorded (and `since`, the document's version as it loaded: a save since is told at once); PUT (form fields page, unsaved=true|false) says whether that page has unsaved changes. A document or page that is
 * not there, not visible or not the user's answers 404.
 */

const notFound = () => new HttpError(404, "errors.notFound");

export const loader = apiRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
  const search = new URL(request.url).searchParams;
  const pageId = search.get(PRESENCE_PAGE_FIELD);
  const since = search.get(PRESENCE_SINCE_FIELD) ?? undefined;
  if (!isUuid(params.contentId) || !isUuid(pageId ?? undefined)) throw notFound();
  const contentId = params.contentId;
  const page = { pageId: pageId as string, bucketId: bucket.id, contentId, userId: user.id };
  if (!(await getLatestVersion(context.db, bucket.id, contentId))) {
    if (!(await pageShown(context.db, page))) throw notFound();
    // Deleted after the page was shown, before its stream opened (the notice had no one to tell): it is told now.
    return eventStreamResponse(request.signal, (stream) => {
      stream.send(PRESENCE_EVENTS.deleted, {});
      stream.close();
      return () => undefined;
    });
  }
  let opened: Promise<(() => Promise<void>) | null> = Promise.resolve(null);
  const response = eventStreamResponse(request.signal, (stream) => {
    opened = context.presence.open(
      page,
      (event, data) => stream.send(event, data),
      () => stream.close(),
      isUuid(since) ? since : null,
    );
    return () => void opened.then((leave) => leave?.());
  });
  if (!(await opened)) {
    await response.body?.cancel();
    throw notFound();
  }
  return response;
});

export const action = apiRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
  if (request.method !== "PUT") throw methodNotAllowed("GET, PUT", `PUT ${PRESENCE_PAGE_FIELD}=…&${PRESENCE_UNSAVED_FIELD}=true|false`);
  const form = await readForm(request);
  const pageId = formText(form, PRESENCE_PAGE_FIELD);
  const unsaved = formText(form, PRESENCE_UNSAVED_FIELD);
  if (!isUuid(pageId) || (unsaved !== "true" && unsaved !== "false")) throw new HttpError(400, "errors.badRequest");
  if (!isUuid(params.contentId)) throw notFound();
  const page = { pageId, bucketId: bucket.id, contentId: params.contentId, userId: user.id };
  if (!(await setUnsaved(context.db, page, unsaved === "true"))) throw notFound();
  return new Response(null, { status: 204 });
});
