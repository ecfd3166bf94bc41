import { redirect } from "react-router";
import { requireAdmin } from "@server/web/guards";
import { resolveBucketSlug } from "@server/content/buckets";
import { HttpError } from "@server/errors";
import { pageRoute } from "@server/web/respond";
import { findAdminBucket } from "@server/content/bucket-admin";
import { exportDefinition } from "@server/content/bucket-transfer";
import { definitionJson } from "@core/content/bucket-definition";
import type { Route } from "./+types/bucket-export";

/** GET /settings/buckets/{slug}/export: the bucket's definition as a JSON download (what the import reads). */
export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  await requireAdmin(request, context);
  const bucket = await findAdminBucket(context.db, params.slug);
  if (!bucket) {
    const renamed = await resolveBucketSlug(context.db, params.slug);
    if (renamed) throw redirect(`/settings/buckets/${encodeURIComponent(renamed.bucket.slug)}/export`, 301);
    throw new HttpError(404, "errors.notFound");
  }
  return new Response(definitionJson(exportDefinition(bucket)), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${bucket.slug}.bucket.json"`,
    },
  });
});
