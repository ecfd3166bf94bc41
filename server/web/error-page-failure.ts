/** Plain HTML for when even the error page cannot render (spec §8). */
export function errorPageFailureHtml(requestId: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body>
<main style="font-family:system-ui;margin:4rem auto;max-width:40rem">
<h1>An error occurred while showing the error page</h1>
<p>Reference: ${requestId.replace(/[^\w-]/g, "")}</p>
<p><a href="/">Go back to home</a></p>
</main></body></html>`;
}
