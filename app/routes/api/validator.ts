import { compileBucketSchema, validatorModule } from "@server/content/validator";
import { requireApiBucketAccess } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { apiRoute } from "@server/web/respond";
import type { Route } from "./+types/validator";

/** GET /validators/{bucket}/{hash}: the bucket's validator as an ES module; the hash makes it cacheable. */
export const loader = apiRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { bucket } = await requireApiBucketAccess(request, context, { slug: params.bucket });
  const compiled = compileBucketSchema(bucket);
  const code = compiled.hash === params.hash ? validatorModule(bucket) : null;
  if (!code) throw new HttpError(404, "api.notFound");
  return new Response(code, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "private, max-age=31536000, immutable" },
  });
});
