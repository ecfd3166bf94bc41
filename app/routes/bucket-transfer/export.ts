import { requireBucketAccess } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { apiRoute } from "@server/web/respond";
import { textStream } from "@server/web/text-stream";
import { selectionFromQuery } from "@server/web/selection-query";
import { EXPORT_CONTENT_TYPES, exportedDocuments, exportFileName, exportText, isExportFormat } from "@server/content/export-documents";
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
  const documents = exportedDocuments(context.db, bucket, selectionFromQuery(url.searchParams, bucket));
  return new Response(textStream(exportText(format, bucket, documents)), {
    headers: {
      "Content-Type": EXPORT_CONTENT_TYPES[format],
      "Content-Disposition": `attachment; filename="${exportFileName(bucket.slug, format)}"`,
      "Cache-Control": "no-store",
    },
  });
});
