import type { AppLoadContext } from "react-router";
import { findBucketByCollection, isBucketVisible } from "./buckets";
import { listContents } from "./store";
import type { User } from "../accounts/users";
import type { JsonSchema } from "../../core/schema/normalize";
import { schemaNodes } from "../../core/schema/walk";
import type { ReferenceCollection } from "../../core/content/references";
import { documentTitle } from "../../core/content/title";


const REFERENCE_OPTION_LIMIT = 1000;

/** Options of every reference select in a schema, rendered on the server so they work without JavaScript. */
export async function loadReferenceOptions(
  context: AppLoadContext,
  user: User,
  schema: JsonSchema,
): Promise<Record<string, ReferenceCollection>> {
  const collections = new Set<string>();
  for (const { node } of schemaNodes(schema)) if (typeof node._ref === "string" && !node._ref.startsWith("b-")) collections.add(node._ref);
  const entries = await Promise.all(
    [...collections].map(async (collection): Promise<[string, ReferenceCollection]> => {
      const bucket = await findBucketByCollection(context.db, collection);
      if (!bucket || !isBucketVisible(bucket, user)) return [collection, { slug: null, options: [] }];
      const versions = await listContents(context.db, bucket.id, { limit: REFERENCE_OPTION_LIMIT });
      const options = versions.map((version) => ({
        value: version.contentId,
        label: documentTitle(version.data, bucket.jsonSchema, bucket.locales) || version.contentId,
      }));
      return [collection, { slug: bucket.slug, options }];
    }),
  );
  return Object.fromEntries(entries);
}
