import { Placeholder } from "../components/placeholder";
import { requireBucketAccess } from "../lib/guards.server";
import type { Route } from "./+types/bucket-placeholder";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { bucket } = await requireBucketAccess(request, context, params.bucket);
  return { name: bucket.name };
}

export default function BucketScreenPlaceholder({ loaderData }: Route.ComponentProps) {
  return <Placeholder title={loaderData.name} />;
}
