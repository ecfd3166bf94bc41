import { Outlet } from "react-router";
import { requireBucketAccess } from "../../server/web/guards";
import { pageRoute } from "../../server/web/respond";
import type { Route } from "./+types/bucket";

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { bucket } = await requireBucketAccess(request, context, params.bucket);
  return { bucket: { slug: bucket.slug, name: bucket.name, singleton: bucket.singleton } };
});

export default function BucketLayout() {
  return <Outlet />;
}
