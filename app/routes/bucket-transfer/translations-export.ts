import { redirect } from "react-router";
import { requireBucketAccess } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { apiRoute } from "@server/web/respond";
import { getRequestState } from "@server/web/request-state";
import { textStream } from "@server/web/text-stream";
import { selectionFromQuery } from "@server/web/selection-query";
import { exportedDocuments } from "@server/content/export-documents";
import { translationFileName, translationLanguages, translationXliff } from "@server/content/translation-export";
import type { Route } from "./+types/translations-export";

/**
 * GET /b/{bucket}/translations/export?locale=nl[&source=en][&q=…][&state=…][&missing=…][&id=…]: the texts of the
 * bucket's documents (all, the overview's matches or chosen ones) for translation into `locale`, as XLIFF 2.0, streamed
 * (server/content/translation-export.ts). With nothing to translate, back to the translations page, which says so.
 */
export const loader = apiRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { bucket } = await requireBucketAccess(request, context, params.bucket);
  const url = new URL(request.url);
  const languages = translationLanguages(bucket, url.searchParams.get("locale"), url.searchParams.get("source"));
  if (!languages) throw new HttpError(400, "translations.badLocale");
  const documents = exportedDocuments(context.db, bucket, selectionFromQuery(url.searchParams, bucket));
  const { locale } = await getRequestState(request, context);
  const pieces = translationXliff(bucket, documents, languages, locale)[Symbol.asyncIterator]();
  const first = await pieces.next();
  if (first.done) {
    const back = new URLSearchParams(url.searchParams);
    back.set("nothing", languages.target);
    throw redirect(`/b/${encodeURIComponent(bucket.slug)}/translations?${back.toString()}`, 303);
  }
  async function* whole() {
    yield first.value as string;
    for (let next = await pieces.next(); !next.done; next = await pieces.next()) yield next.value;
  }
  return new Response(textStream(whole()), {
    headers: {
      "Content-Type": "application/xliff+xml; charset=utf-8",
      "Content-Disposition": `attachment; filename="${translationFileName(bucket.slug, languages)}"`,
      "Cache-Control": "no-store",
    },
  });
});
