import { contentDisposition } from "@server/web/serve-media";
import { startBundle } from "@server/delivery/bundle";
import { parseBundleRequest } from "@server/delivery/bundle-request";
import { packToWebStream } from "@server/delivery/tar-entries";
import { deliveryAction, deliveryLoader } from "@server/web/delivery/route";

/*
 * GET /api/v1/delivery/bundle?buckets=a,b&locales=nl,en&populate=1[&since=<bundle id>]: an offline bundle, one tar
 * archive streamed as it is made (docs/bundles.md). Bad parameters are refused (problem details) before a byte is
 * sent; a failure while streaming cuts the archive short, without its manifest.
 */
export const loader = deliveryLoader(async ({ read, url, request, context }) => {
  const bundle = await parseBundleRequest(read.db, read.client, url);
  const headers = {
    "Content-Type": "application/x-tar",
    "Content-Disposition": contentDisposition("attachment", `vitrine-bundle-${new Date().toISOString().slice(0, 10)}.tar`),
    "Cache-Control": "no-store",
  };
  // HEAD checks the parameters and makes no bundle (a bundle is recorded when it is whole).
  if (request.method === "HEAD") return new Response(null, { status: 200, headers });
  const abort = new AbortController();
  const stop = () => abort.abort(new Error("the client went away"));
  request.signal.addEventListener("abort", stop, { once: true });
  const { pack, done } = await startBundle(
    { db: read.db, client: read.client, config: context.config, storage: context.media.storage },
    bundle,
    abort.signal,
  );
  done
    .then(
      ({ manifest, bytes }) =>
        context.logger.info({ bundle: manifest.id, client: read.client.id, files: manifest.files.length, bytes }, "offline bundle sent"),
      (error: unknown) => {
        if (!abort.signal.aborted) context.logger.error({ err: error, client: read.client.id }, "offline bundle failed");
      },
    )
    .finally(() => request.signal.removeEventListener("abort", stop));
  return new Response(packToWebStream(pack, stop), { status: 200, headers });
});

export const action = deliveryAction();
