import type { AppLoadContext } from "react-router";
import { findBucketByCollection, isBucketVisible } from "../../../server/services/buckets";
import { listContents } from "../../../server/services/content";
import type { User } from "../../../server/services/users";
import type { JsonSchema } from "../schema/normalize";
import { documentTitle } from "./title";

export interface ReferenceOption {
  value: string;
  label: string;
}

const REFERENCE_OPTION_LIMIT = 1000;

function collectReferences(schema: unknown, found: Set<string>) {
  if (typeof schema !== "object" || schema === null) return;
  const node = schema as JsonSchema;
  if (typeof node._ref === "string" && !node._ref.startsWith("b-")) found.add(node._ref);
  for (const child of Object.values((node.properties as Record<string, unknown>) ?? {})) collectReferences(child, found);
  collectReferences(node.items, found);
}

/** Options of every reference select in a schema, rendered on the server so they work without JavaScript. */
export async function loadReferenceOptions(
  context: AppLoadContext,
  user: User,
  schema: JsonSchema,
): Promise<Record<string, ReferenceOption[]>> {
  const collections = new Set<string>();
  collectReferences(schema, collections);
  const entries = await Promise.all(
    [...collections].map(async (collection) => {
      const bucket = await findBucketByCollection(context.db, collection);
      if (!bucket || !isBucketVisible(bucket, user)) return [collection, []] as const;
      const versions = await listContents(context.db, bucket.id, { limit: REFERENCE_OPTION_LIMIT });
      return [
        collection,
        versions.map((version) => ({ value: version.contentId, label: documentTitle(version.data, bucket.jsonSchema, bucket.locales) || version.contentId })),
      ] as const;
    }),
  );
  return Object.fromEntries(entries);
}
