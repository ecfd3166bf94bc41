import { Outlet } from "react-router";
import { requireBucketAccess } from "@server/web/guards";
import { pageRoute } from "@server/web/respond";
import type { Route } from "./+types/bucket";
import { interfaceBucketName } from "@server/web/request-state";

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { bucket } = await requireBucketAccess(request, context, params.bucket);
  return { bucket: { slug: bucket.slug, name: await interfaceBucketName(request, context, bucket), singleton: bucket.singleton } };
});

export default function BucketLayout() {
  return <Outlet />;
}
