import { problemsCsv } from "@server/content/import-problems";
import { apiRoute } from "@server/web/respond";
import { textStream } from "@server/web/text-stream";
import { requireRun } from "./import.server";
import type { Route } from "./+types/import-problems";

/**
 * GET /b/{bucket}/import/{run}/problems: every problem of an import run as CSV (row, field, message), streamed; the
 * run's page shows the first 100. Whoever may see the run's page may download it.
 */
export const loader = apiRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { run } = await requireRun(request, context, params);
  const name = run.fileName.replace(/\.[^.]*$/, "").replace(/[^\w.-]+/g, "-") || "import";
  return new Response(textStream(problemsCsv(context.db, run.id)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-problems.csv"`,
      "Cache-Control": "no-store",
    },
  });
});
