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

export interface ReferenceCollection {
  /** The bucket that holds the collection, for links and sub-forms; null when the user may not see it. */
  slug: string | null;
  options: ReferenceOption[];
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
): Promise<Record<string, ReferenceCollection>> {
  const collections = new Set<string>();
  collectReferences(schema, collections);
  const entries = await Promise.all(
    [...collections].map(async (collection) => {
      const bucket = await findBucketByCollection(context.db, collection);
      if (!bucket || !isBucketVisible(bucket, user)) return [collection, { slug: null, options: [] }] as const;
      const versions = await listContents(context.db, bucket.id, { limit: REFERENCE_OPTION_LIMIT });
      const options = versions.map((version) => ({
        value: version.contentId,
        label: documentTitle(version.data, bucket.jsonSchema, bucket.locales) || version.contentId,
      }));
      return [collection, { slug: bucket.slug, options }] as const;
    }),
  );
  return Object.fromEntries(entries);
}
