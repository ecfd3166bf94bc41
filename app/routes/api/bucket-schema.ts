import { requireApiBucketAccess } from "@server/web/guards";
import { compileBucketSchema } from "@server/content/validator";
import { apiRoute } from "@server/web/respond";
import type { Route } from "./+types/bucket-schema";

/** GET /api/v1/buckets/{slug}/schema: what a form needs to render and validate the bucket's documents. */
export const loader = apiRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { bucket } = await requireApiBucketAccess(request, context, { slug: params.slug });
  const compiled = compileBucketSchema(bucket);
  return Response.json({
    slug: bucket.slug,
    name: bucket.name,
    collectionName: bucket.collectionName,
    locales: bucket.locales,
    schema: compiled.schema,
    problems: compiled.problems,
    validatorUrl: compiled.validate ? `/validators/${bucket.slug}/${compiled.hash}` : null,
  });
});
