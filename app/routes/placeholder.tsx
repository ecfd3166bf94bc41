import { Placeholder } from "../components/placeholder";
import { requireBucketAccess, requireUser } from "../../server/web/guards";
import { pageRoute } from "../../server/web/respond";
import type { Route } from "./+types/placeholder";

/** Signed-in screens of a later release; a specialised bucket screen also needs a bucket the user may see (spec §6). */
export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const bucket = (params as { bucket?: string }).bucket;
  if (bucket !== undefined) await requireBucketAccess(request, context, bucket);
  else await requireUser(request, context);
  return null;
});

export default function SignedInPlaceholder() {
  return <Placeholder />;
}
