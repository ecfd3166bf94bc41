import { readdirSync } from "node:fs";
import path from "node:path";
import type { ServerBuild } from "react-router";

/**
 * React Router's server build as the production server gets it (`serverBuild` of server/serving.ts, in the build's
 * serving chunk; npm test builds it before the suite): every route with its id, path and module.
 */
export async function productionServerBuild(): Promise<ServerBuild> {
  const chunks = path.resolve(process.env.VITRINE_BUILD_DIR ?? "build", "server", "chunks");
  const serving = readdirSync(chunks).filter((name) => /^serving-.*\.js$/.test(name));
  if (serving.length !== 1) throw new Error(`Expected one serving chunk in ${chunks}, found ${serving.join(", ") || "none"}.`);
  const module = (await import(/* @vite-ignore */ path.join(chunks, serving[0] as string))) as { serverBuild: ServerBuild };
  return module.serverBuild;
}
