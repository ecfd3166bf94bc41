import { findBucketBySlug } from "@server/content/buckets";
import { impactStream } from "@server/content/schema-impact";
import { requireAdmin } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { getRequestState } from "@server/web/request-state";
import { apiRoute, methodNotAllowed } from "@server/web/respond";
import { IMPACT_STREAM_TYPE, readSchemaText, SCHEMA_FIELD } from "@core/schema/impact";
import type { Route } from "./+types/bucket-impact-stream";
import { readForm } from "@server/web/read-form";

/*
 * POST /settings/buckets/{slug}/impact/stream (form field jsonSchema): the impact preview of a proposed schema as
 * NDJSON (application/x-ndjson), one ImpactStreamLine (core/schema/impact.ts) per line: progress lines, then the
 * report. A refusal before the stream starts is {error} JSON with its status; the guard redirects like a page.
 */

const notAllowed = () => methodNotAllowed("POST", `POST ${SCHEMA_FIELD}=…`);

export const loader = apiRoute(async ({ request, context }: Route.LoaderArgs) => {
  await requireAdmin(request, context);
  throw notAllowed();
});

export const action = apiRoute(async ({ request, context, params }: Route.ActionArgs) => {
  await requireAdmin(request, context);
  if (request.method !== "POST") throw notAllowed();
  const bucket = await findBucketBySlug(context.db, params.slug);
  if (!bucket) throw new HttpError(404, "errors.notFound");
  const form = await readForm(request);
  const proposed = readSchemaText(form.get(SCHEMA_FIELD));
  if (!proposed.ok) throw new HttpError(400, proposed.error.key, proposed.error.params);
  const { locale } = await getRequestState(request, context);
  const lines = impactStream(context.db, bucket, proposed.schema, {
    messageLocale: locale,
    locale,
    signal: request.signal,
    logger: context.logger,
    requestId: context.requestId,
  });
  // A proxy that buffers answers (nginx) would hold the progress back until the end.
  return new Response(lines, { headers: { "Content-Type": `${IMPACT_STREAM_TYPE}; charset=utf-8`, "X-Accel-Buffering": "no" } });
});
