import { HttpError } from "@server/errors";
import { libraryBuckets } from "@server/media/library";
import { pickableItems } from "@server/media/library-pick";
import { mediaKindOf, uploadBucket } from "@server/media/access";
import { resolveMediaProperty } from "@server/media/field-property";
import { requireApiUser } from "@server/web/guards";
import { getRequestState } from "@server/web/request-state";
import { apiRoute, methodNotAllowed } from "@server/web/respond";
import { parseLibraryQuery } from "@core/media/library";
import type { Route } from "./+types/media-library";

const USAGE = "GET ?kind={image|video|file}&form={bucket}&properties={field's schema property}[&q=…][&page=…]";

/**
 * GET /api/v1/media/library?kind=…&form=…&properties=…[&q=…&page=…]: the library for one media field of the form of
 * bucket `form` (its schema property as uploads send it), as a sub-form's dialog chooses from it with JavaScript:
 * the items of the field's kind in the buckets the user may see, newest first, each with why it does not fit the
 * field (`refusals`, in the user's language; empty: it can be chosen). The save checks a choice again.
 */
export const loader = apiRoute(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(request, context);
  const params = new URL(request.url).searchParams;
  const kind = mediaKindOf(params.get("kind") ?? undefined);
  if (!kind) throw new HttpError(400, "errors.badRequest");
  const bucket = await uploadBucket(context, user, params.get("form") ?? undefined);
  const property = resolveMediaProperty(bucket.jsonSchema, kind, params.get("properties"));
  const { locale } = await getRequestState(request, context);
  const buckets = await libraryBuckets(context.db, user, locale);
  return Response.json(await pickableItems(context.db, buckets, { kind, property }, parseLibraryQuery(params), locale));
});

export const action = apiRoute(() => {
  throw methodNotAllowed("GET", USAGE);
});
