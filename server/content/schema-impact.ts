import { setImmediate } from "node:timers/promises";
import type { ErrorObject } from "ajv";
import type { Db, Queryable } from "@server/db/client";
import type { Logger } from "@server/logger";
import type { Bucket } from "./buckets";
import { documentCountSql } from "./document-counts";
import { compileBucketSchema, schemaHash } from "./validator";
import { documentTitle } from "@core/content/title";
import type { Locale } from "@core/locales";
import { translate } from "@core/messages";
import { mapValidationErrors } from "@core/schema/errors";
import type { JsonSchema } from "@core/schema/normalize";
import { BoundedMap } from "@core/bounded-map";
import {
  compareSchemaProperties,
  generalizeFieldName,
  holdsValueAt,
  IMPACT_SAMPLE_SIZE,
  impactNeedsConfirmation,
  type ImpactDocument,
  type ImpactGroup,
  type ImpactProgress,
  type ImpactPropertyChange,
  type ImpactReport,
  type ImpactStreamLine,
} from "@core/schema/impact";

/*
 * The impact preview of a schema change (issue 11): the latest version of every document of the bucket validated
 * against the proposed schema by the validator the edit page and the save use (compileBucketSchema: normalisation
 * and the one AJV setup; mapValidationErrors: the same fields and messages), read in batches along the contents
 * primary key (a keyset cursor: never the whole bucket at once, nothing held open between batches, so other
 * requests, on PGlite too, go on in between). It only reads: nothing stored changes.
 */

/** Documents read per query: large enough that round trips do not dominate, small enough to keep memory flat. */
export const IMPACT_BATCH_SIZE = 2_000;

export interface AssessOptions {
  /** The language of the messages: the installation's default locale, as on the edit page. */
  messageLocale: Locale;
  /** The bucket's locales under the new schema (default: the bucket's). */
  locales?: readonly string[];
  /** Called before the first batch ({checked: 0}) and after each. */
  onProgress?: (progress: ImpactProgress) => void;
  /** Stops between batches (the client went away): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  batchSize?: number;
  sampleSize?: number;
}

type ImpactBucket = Pick<Bucket, "id" | "slug" | "singleton" | "jsonSchema" | "locales">;

interface Row {
  contentId: string;
  data: Record<string, unknown>;
}

/** A group or a property change while the documents are read: its count and its first documents. */
interface Tally {
  count: number;
  documents: ImpactDocument[];
}

const documentHref = (bucket: ImpactBucket, contentId: string) =>
  bucket.singleton ? `/b/${bucket.slug}/edit` : `/b/${bucket.slug}/${contentId}/latest`;

/** The number of documents in the bucket, for the progress (kept with every create and delete). */
async function countDocuments(db: Queryable, bucketId: string): Promise<number> {
  const { rows } = await db.query<{ total: number }>(`SELECT ${documentCountSql("$1::uuid")} AS total`, [bucketId]);
  return rows[0]?.total ?? 0;
}

/**
 * The next batch of latest versions after `after` (contentId order): an ordered scan of contents_bucket_content_idx
 * that stops after `limit` rows, then each row's version by its key. The plan is pinned for the batch's
 * transaction: PGlite has no autovacuum, so without statistics the planner may guess that a bucket has a few hundred
 * documents and sort all the rest of them (versions' data included) for every batch: at 100,000 documents a batch
 * took 1.5 s instead of 0.2 s (measured on a busy machine).
 */
async function readBatch(db: Db, bucketId: string, after: string | null, limit: number): Promise<Row[]> {
  return db.transaction(async (tx) => {
    await tx.query("SET LOCAL enable_bitmapscan = off");
    await tx.query("SET LOCAL enable_sort = off");
    await tx.query("SET LOCAL enable_hashjoin = off");
    const { rows } = await tx.query<Row>(
      `SELECT c.content_id AS "contentId", v.data
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
       WHERE c.bucket_id = $1 ${after ? "AND c.content_id > $3" : ""}
       ORDER BY c.content_id
       LIMIT $2`,
      after ? [bucketId, limit, after] : [bucketId, limit],
    );
    return rows;
  });
}

interface ErrorGroup {
  key: string;
  property: string;
  message: string;
}

/** Distinct errors remembered at most: documents of one bucket tend to fail in the same few ways. */
const MAX_REMEMBERED_ERRORS = 10_000;

/**
 * An AJV error → the groups it counts in: mapValidationErrors (the editor's fields and messages) on that one error,
 * remembered by keyword, path and params, since 100,000 documents mostly repeat a few errors.
 */
function errorGroups(schema: JsonSchema, messageLocale: Locale): (error: ErrorObject) => ErrorGroup[] {
  const remembered = new BoundedMap<string, ErrorGroup[]>(MAX_REMEMBERED_ERRORS);
  return (error) => {
    const id = `${error.keyword}\u0000${error.instancePath}\u0000${JSON.stringify(error.params)}`;
    let found = remembered.get(id);
    if (!found) {
      const { byField } = mapValidationErrors([error], schema, messageLocale);
      found = Object.entries(byField).flatMap(([name, messages]) => {
        const property = generalizeFieldName(name);
        return messages.map((message) => ({ key: JSON.stringify([property, message]), property, message }));
      });
      remembered.set(id, found);
    }
    return found;
  };
}

function throwIfAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("The impact preview was stopped");
}

/**
 * Validates the latest version of every document of `bucket` against `newSchema` and answers what would break:
 * how many documents fail, grouped by property and message, and the properties removed or renamed with how many
 * documents hold a value there. With schema problems (the new schema cannot be normalised or compiled), nothing
 * is read and the report carries them.
 */
export async function assessSchemaChange(db: Db, bucket: ImpactBucket, newSchema: unknown, options: AssessOptions): Promise<ImpactReport> {
  const started = performance.now();
  const locales = options.locales ?? bucket.locales;
  const sampleSize = options.sampleSize ?? IMPACT_SAMPLE_SIZE;
  const batchSize = options.batchSize ?? IMPACT_BATCH_SIZE;
  const next = compileBucketSchema({ jsonSchema: newSchema, locales });
  const current = compileBucketSchema(bucket);
  const report: ImpactReport = {
    bucketSlug: bucket.slug,
    checked: 0,
    failing: 0,
    groups: [],
    changes: [],
    problems: [...next.problems],
    durationMs: 0,
  };
  const validate = next.validate;
  if (!validate) {
    report.durationMs = Math.round(performance.now() - started);
    return report;
  }
  const newTally = (): Tally => ({ count: 0, documents: [] });
  // Only the first few documents of each group are kept, and of those only what the report shows.
  const toDocument = ({ contentId, data }: Row): ImpactDocument => ({
    contentId,
    title: documentTitle(data, newSchema, locales) || documentTitle(data, bucket.jsonSchema, bucket.locales),
    href: documentHref(bucket, contentId),
  });
  const propertyChanges = compareSchemaProperties(current.schema, next.schema).map((change) => ({ ...change, tally: newTally() }));
  const groups = new Map<string, { property: string; message: string; tally: Tally }>();
  const groupsOf = errorGroups(next.schema, options.messageLocale);
  const count = (tally: Tally, row: Row) => {
    tally.count += 1;
    if (tally.documents.length < sampleSize) tally.documents.push(toDocument(row));
  };

  const total = await countDocuments(db, bucket.id);
  options.onProgress?.({ checked: 0, total });
  let after: string | null = null;
  for (;;) {
    throwIfAborted(options.signal);
    const rows = await readBatch(db, bucket.id, after, batchSize);
    for (const row of rows) {
      for (const change of propertyChanges) if (holdsValueAt(row.data, change.path)) count(change.tally, row);
      if (validate(row.data)) continue;
      report.failing += 1;
      // Each document once per group, even when several rows of a list have the same problem.
      const seen = new Set<string>();
      for (const error of validate.errors ?? []) {
        for (const { key, property, message } of groupsOf(error)) {
          if (seen.has(key)) continue;
          seen.add(key);
          let group = groups.get(key);
          if (!group) groups.set(key, (group = { property, message, tally: newTally() }));
          count(group.tally, row);
        }
      }
    }
    report.checked += rows.length;
    const last = rows[rows.length - 1];
    // The count may have moved meanwhile (documents created or deleted): progress never goes past its total.
    options.onProgress?.({ checked: report.checked, total: Math.max(total, report.checked) });
    if (!last || rows.length < batchSize) break;
    after = last.contentId;
    // PGlite answers without a turn of the event loop: without this the progress would not leave before the report,
    // and the server would answer no other request meanwhile.
    await setImmediate();
  }

  report.groups = [...groups.values()]
    .map(({ property, message, tally }): ImpactGroup => ({ property, message, count: tally.count, documents: tally.documents }))
    .sort((a, b) => b.count - a.count || a.property.localeCompare(b.property) || a.message.localeCompare(b.message));
  report.changes = propertyChanges.map(({ kind, property, renamedTo, tally }): ImpactPropertyChange => ({
    kind,
    property,
    ...(renamedTo ? { renamedTo } : {}),
    count: tally.count,
    documents: tally.documents,
  }));
  report.durationMs = Math.round(performance.now() - started);
  return report;
}

/**
 * For the save of a changed schema: null when the save may go on (the schema is unchanged, the admin confirmed the
 * breaking change with CONFIRM_BREAKING_FIELD, or no document breaks or loses a value), else the report to show
 * with the confirmation control (ConfirmBreakingChange). A confirmed save is not checked again: the admin saw the
 * report (the preview with JavaScript, or this refusal without).
 */
export async function checkSchemaSave(
  db: Db,
  bucket: ImpactBucket,
  newSchema: unknown,
  options: { messageLocale: Locale; confirmed: boolean; locales?: readonly string[]; signal?: AbortSignal },
): Promise<ImpactReport | null> {
  if (options.confirmed) return null;
  const locales = options.locales ?? bucket.locales;
  if (schemaHash(newSchema, locales) === schemaHash(bucket.jsonSchema, bucket.locales)) return null;
  const report = await assessSchemaChange(db, bucket, newSchema, {
    messageLocale: options.messageLocale,
    locales,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return impactNeedsConfirmation(report) ? report : null;
}

const encoder = new TextEncoder();
const line = (value: ImpactStreamLine) => encoder.encode(`${JSON.stringify(value)}\n`);

/**
 * The impact preview as a stream of NDJSON lines (core/schema/impact.ts ImpactStreamLine): progress after each batch,
 * then the report. It stops when the client goes away (`signal`, or the stream cancelled); an unexpected failure is
 * logged and ends the stream with an `error` line carrying the request id.
 */
export function impactStream(
  db: Db,
  bucket: ImpactBucket,
  newSchema: unknown,
  options: { messageLocale: Locale; locale: Locale; signal: AbortSignal; logger: Logger; requestId: string },
): ReadableStream<Uint8Array> {
  const stopped = new AbortController();
  const signal = AbortSignal.any([options.signal, stopped.signal]);
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        const report = await assessSchemaChange(db, bucket, newSchema, {
          messageLocale: options.messageLocale,
          signal,
          onProgress: (progress) => controller.enqueue(line({ type: "progress", ...progress })),
        });
        controller.enqueue(line({ type: "report", report }));
      } catch (error) {
        if (signal.aborted) return;
        options.logger.error({ err: error }, "impact preview failed");
        const message = translate(options.locale, "errors.unexpected", { id: options.requestId });
        controller.enqueue(line({ type: "error", status: 500, message }));
      }
      controller.close();
    },
    cancel() {
      stopped.abort();
    },
  });
  return body;
}
