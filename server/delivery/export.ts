import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { findApiClient, type ApiClient } from "@server/accounts/api-clients";
import type { Db } from "@server/db/client";
import type { CommandContext } from "@server/cli";
import { translate } from "@core/messages";
import { startBundle } from "./bundle";
import { parseBundleRequest } from "./bundle-request";
import { Problem } from "./problem";

/*
 * `npm run vitrine -- export-bundle`: the bundle GET /api/v1/delivery/bundle answers, for a client named by id or
 * name, written to a file (first as FILE.part, renamed when complete, so a file of that name is always whole).
 */

export interface ExportOptions {
  client: string;
  buckets: string;
  locales?: string;
  populate?: string;
  since?: string;
  out: string;
}

async function liveClient(db: Db, nameOrId: string): Promise<ApiClient> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM api_clients WHERE (id::text = lower($1) OR name = $1) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
    [nameOrId],
  );
  const byId = rows.find((row) => row.id === nameOrId.toLowerCase());
  if (!byId && rows.length > 1) throw new Error(`Several live API clients are named '${nameOrId}': name one by its id.`);
  const chosen = byId ?? rows[0];
  const client = chosen ? await findApiClient(db, chosen.id) : null;
  if (!client) throw new Error(`No live API client '${nameOrId}' (an id or a name; revoked and expired clients make no bundles).`);
  return client;
}

export async function exportBundle(
  db: Db,
  context: CommandContext,
  options: ExportOptions,
): Promise<{ id: string; files: number; bytes: number; out: string }> {
  const client = await liveClient(db, options.client);
  const url = new URL("http://cli/bundle");
  url.searchParams.set("buckets", options.buckets);
  if (options.locales !== undefined) url.searchParams.set("locales", options.locales);
  if (options.populate !== undefined) url.searchParams.set("populate", options.populate);
  if (options.since !== undefined) url.searchParams.set("since", options.since);
  let request;
  try {
    request = await parseBundleRequest(db, client, url);
  } catch (error) {
    if (error instanceof Problem) throw new Error(translate("en", error.detailKey, error.params));
    throw error;
  }
  const partial = `${options.out}.part`;
  const { pack, done } = await startBundle({ db, client, config: context.config, storage: context.storage }, request);
  try {
    await Promise.all([pipeline(pack, createWriteStream(partial)), done]);
    await rename(partial, options.out);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  const { manifest, bytes } = await done;
  return { id: manifest.id, files: manifest.files.length + 1, bytes, out: options.out };
}
