import type { User } from "@server/accounts/users";
import type { Queryable } from "@server/db/client";
import { isUuid } from "@core/ids";
import type { Message } from "@core/messages";
import { titleProperty } from "@core/content/title";
import { findBucketByCollection, isBucketVisible } from "./buckets";
import { namedValues, replaceAt, type NamedValue } from "./import-fields";

/*
 * An import's references by title (issue 34): a reference field's cell holds a document's id (taken as it is, as the
 * editor takes it) or its title, matched exactly but for case and surrounding spaces against the title of each
 * document in the referenced bucket (any language of a translated title), if the importing user may see that
 * bucket. One match becomes its id; none, or several, is a problem naming the title. One query per referenced
 * bucket per batch.
 */

export interface FieldProblem {
  field: string;
  message: Message;
}

export interface ReferencingRow {
  data: Record<string, unknown>;
  problems: FieldProblem[];
}

/** Replaces the titles in the rows' reference fields by the ids they match, or adds a problem to the row. */
export async function resolveReferenceTitles(
  db: Queryable,
  user: Pick<User, "buckets">,
  schema: unknown,
  rows: readonly ReferencingRow[],
): Promise<void> {
  const named = rows.map((row) =>
    namedValues(schema, row.data).filter(
      (value): value is NamedValue & { role: "reference" } => value.role === "reference" && !isUuid(value.text),
    ),
  );
  const titles = new Map<string, Set<string>>();
  for (const value of named.flat()) {
    const wanted = titles.get(value.collection) ?? new Set<string>();
    wanted.add(value.text.toLowerCase());
    titles.set(value.collection, wanted);
  }
  const matches = new Map<string, Map<string, string[]>>();
  for (const [collection, wanted] of titles) matches.set(collection, await documentsTitled(db, user, collection, [...wanted]));
  for (const [index, row] of rows.entries()) {
    for (const value of named[index] ?? []) {
      const ids = matches.get(value.collection)?.get(value.text.toLowerCase()) ?? [];
      const [only] = ids;
      if (ids.length === 1 && only) replaceAt(row.data, value.path, only);
      else
        row.problems.push({
          field: value.name,
          message: ids.length
            ? { key: "transfer.referenceSeveral", params: { title: value.text, count: ids.length } }
            : { key: "transfer.referenceNone", params: { title: value.text } },
        });
    }
  }
}

/** The ids of the collection's documents by lower-cased title, for the titles wanted (none when the user may not see it). */
async function documentsTitled(
  db: Queryable,
  user: Pick<User, "buckets">,
  collection: string,
  wanted: string[],
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  const bucket = await findBucketByCollection(db, collection);
  const key = bucket ? titleProperty(bucket.jsonSchema) : null;
  if (!bucket || !key || !isBucketVisible(bucket, user)) return found;
  const { rows } = await db.query<{ title: string; ids: string[] }>(
    `SELECT t.title, array_agg(DISTINCT c.content_id::text) AS ids
     FROM contents c
     JOIN versions v ON v.version_id = c.latest_version_id
     CROSS JOIN LATERAL (
       SELECT lower(btrim(v.data ->> $2)) AS title WHERE jsonb_typeof(v.data -> $2) = 'string'
       UNION
       SELECT lower(btrim(e.value)) FROM jsonb_each_text(CASE WHEN jsonb_typeof(v.data -> $2) = 'object' THEN v.data -> $2 ELSE '{}' END) e
     ) t
     WHERE c.bucket_id = $1 AND t.title = ANY($3::text[])
     GROUP BY t.title`,
    [bucket.id, key, wanted],
  );
  for (const row of rows) found.set(row.title, row.ids);
  return found;
}
