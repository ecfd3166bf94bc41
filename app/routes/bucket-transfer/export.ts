import { requireBucketAccess } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { apiRoute } from "@server/web/respond";
import { textStream } from "@server/web/text-stream";
import { EXPORT_CONTENT_TYPES, exportedDocuments, exportFileName, exportText, isExportFormat } from "@server/content/export-documents";
import { isUuid } from "@core/ids";
import { isPublicationState } from "@core/content/publication";
import type { Route } from "./+types/export";

/**
 * GET /b/{bucket}/export?format=csv|json|ndjson[&q=…][&state=…][&missing=…][&id=…]: the bucket's documents as a download (issue 34), all
 * of them, a search's matches (q, as the overview searches) or chosen ones (id, repeated), oldest first, streamed.
 */
export const loader = apiRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { bucket } = await requireBucketAccess(request, context, params.bucket);
  const url = new URL(request.url);
  const format = url.searchParams.get("format") ?? "csv";
  if (!isExportFormat(format)) throw new HttpError(400, "transfer.badFormat");
  const ids = url.searchParams.getAll("id");
  if (ids.some((id) => !isUuid(id))) throw new HttpError(400, "errors.badRequest");
  const state = url.searchParams.get("state");
  if (state !== null && !isPublicationState(state)) throw new HttpError(400, "errors.badRequest");
  const missing = url.searchParams.get("missing");
  if (missing !== null && !bucket.locales.includes(missing)) throw new HttpError(400, "errors.badRequest");
  const documents = exportedDocuments(context.db, bucket, {
    missing,
    search: url.searchParams.get("q") ?? undefined,
    state,
    ids: ids.length ? ids : undefined,
  });
  return new Response(textStream(exportText(format, bucket, documents)), {
    headers: {
      "Content-Type": EXPORT_CONTENT_TYPES[format],
      "Content-Disposition": `attachment; filename="${exportFileName(bucket.slug, format)}"`,
      "Cache-Control": "no-store",
    },
  });
});
