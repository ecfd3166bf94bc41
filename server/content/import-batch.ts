import type { Author, User } from "@server/accounts/users";
import type { Db, Queryable } from "@server/db/client";
import type { FfmpegTools } from "@server/media/ffmpeg";
import { dataOfCells, ID_COLUMN, type DocumentColumn } from "@core/content/columns";
import { checkDocument } from "@core/form/resolve";
import { isUuid } from "@core/ids";
import type { Locale } from "@core/locales";
import { translateMessage } from "@core/messages";
import { isDeepStrictEqual } from "node:util";
import type { Bucket } from "./buckets";
import { listCellAsJson } from "./import-fields";
import { recordImportedMedia, stageRowMedia, type MediaSource } from "./import-media";
import { recordProblems } from "./import-problems";
import { resolveReferenceTitles, type FieldProblem } from "./import-references";
import { RunTakenOver, type ImportProblem, type ImportRun } from "./import-runs";
import type { ImportRow } from "./import-source";
import { saveDocument, type SaveDeps } from "./save";
import { checkMediaReferences, discardFiles } from "./save-media";
import { compileBucketSchema } from "./validator";

/*
 * One batch of an import's rows (issue 34), in one transaction with the run's progress and its problems: each row's
 * data (a CSV's cells through the mapping and the columns), its references by title (import-references.ts), its
 * media (import-media.ts), the document it names (by `_id` or the external key), and its save through the front door,
 * or for a dry run the same checks without writing.
 */

/** The problems a run keeps on its row for the page; all of them are in import_problems. */
export const MAX_KEPT_PROBLEMS = 100;

/** What a run needs besides its row: how it saves, who runs it, in which bucket, and the language of its messages. */
export interface ImportContext {
  deps: SaveDeps & { db: Db };
  actor: Author & Pick<User, "name" | "buckets">;
  bucket: Bucket;
  locale: Locale;
  /** Checks a video from the ZIP (ffprobe); without it a video is refused as an upload is. */
  ffmpeg?: FfmpegTools | null;
  /** Told after each batch, with the rows done so far (a progress bar, the CLI's progress lines). */
  onBatch?: (rowsDone: number) => void;
  /** Asked after each batch: true leaves the run where it is, running, for a resume (the server stops). */
  shouldStop?: () => boolean;
}

/** A document a row names: its id, the version it is at and its data. */
interface Named {
  contentId: string;
  versionId: string;
  data: Record<string, unknown>;
}

export type RowConverter = (source: ImportRow) => { id: string | null; data: Record<string, unknown>; problems: FieldProblem[] };

/** A row's document id (`_id`, if any) and data: a CSV's cells through the mapping and the columns, a JSON row as it is. */
export function rowConverter(run: ImportRun, bucket: Pick<Bucket, "jsonSchema">, columns: readonly DocumentColumn[]): RowConverter {
  if (run.format !== "csv")
    return (source) => {
      const { [ID_COLUMN]: id, ...data } = source;
      return { id: typeof id === "string" && id.trim() ? id.trim() : null, data, problems: [] };
    };
  const properties = new Map(columns.map((column) => [column.header, column.property]));
  return (source) => {
    const cells: Record<string, string> = {};
    for (const [header, text] of Object.entries(source)) {
      const column = run.options.mapping[header] ?? header;
      const property = properties.get(column);
      const cell = typeof text === "string" ? text : "";
      cells[column] = property && cell ? listCellAsJson(bucket.jsonSchema, property, cell) : cell;
    }
    const { data, problems } = dataOfCells(cells, columns);
    const id = cells[ID_COLUMN]?.trim() || null;
    return { id, data, problems: problems.map((problem) => ({ field: problem.header, message: problem.message })) };
  };
}

export async function importBatch(
  context: ImportContext,
  run: ImportRun,
  media: MediaSource,
  batch: ReadonlyArray<{ row: number; source: ImportRow }>,
  convert: RowConverter,
): Promise<void> {
  const { deps, bucket, locale, actor } = context;
  const counts = { created: 0, updated: 0, unchanged: 0, refused: 0, problems: [] as ImportProblem[] };
  const refuse = (row: number, problems: Array<{ field: string; message: string }>) => {
    counts.refused += 1;
    counts.problems.push(...problems.map((problem) => ({ row, ...problem })));
  };
  const { schema, validate, problems: schemaProblems } = compileBucketSchema(bucket);
  await deps.db.transaction(async (tx) => {
    const rows = batch.map(({ row, source }) => ({ row, ...convert(source) }));
    await resolveReferenceTitles(tx, actor, bucket.jsonSchema, rows);
    const named = await namedDocuments(tx, run, bucket, rows);
    for (const row of rows) {
      const staged = row.problems.length ? null : await stageRowMedia(tx, media, bucket.jsonSchema, row);
      const discard = () => discardFiles(deps.media.storage, staged?.files ?? []);
      if (row.problems.length) {
        await discard();
        refuse(
          row.row,
          row.problems.map((problem) => ({ field: problem.field, message: translateMessage(locale, problem.message) })),
        );
        continue;
      }
      if (row.id !== null && !isUuid(row.id)) {
        await discard();
        refuse(row.row, [{ field: ID_COLUMN, message: translateMessage(locale, { key: "transfer.badId" }) }]);
        continue;
      }
      const keyValue = run.options.key ? keyOf(row.data[run.options.key]) : null;
      const existing = (row.id ? named.byId.get(row.id) : undefined) ?? (keyValue ? named.byKey.get(keyValue) : undefined);
      if (row.id && named.elsewhere.has(row.id)) {
        await discard();
        refuse(row.row, [{ field: ID_COLUMN, message: translateMessage(locale, { key: "transfer.idElsewhere" }) }]);
        continue;
      }
      const unchanged = existing !== undefined && isDeepStrictEqual(existing.data, row.data);
      if (unchanged || run.dryRun) await discard();
      if (unchanged) {
        counts.unchanged += 1;
        continue;
      }
      if (run.dryRun) {
        if (!validate)
          refuse(
            row.row,
            schemaProblems.map((message) => ({ field: "", message })),
          );
        else {
          const checked = checkDocument(row.data, schema, validate, locale);
          if (!checked.ok) refuse(row.row, fieldProblems(checked.errors.byField, checked.message));
          else if (existing) counts.updated += 1;
          else {
            counts.created += 1;
            if (keyValue) named.byKey.set(keyValue, { contentId: "", versionId: "", data: row.data });
          }
        }
        continue;
      }
      const files = staged?.files ?? [];
      const upload = files.length
        ? {
            files,
            references: await checkMediaReferences(tx, deps.media.storage, {
              user: actor,
              bucket,
              documentId: existing?.contentId ?? null,
              schema,
              value: row.data,
              tokens: [],
              staged: files,
              locale,
            }),
          }
        : undefined;
      const saved = await saveDocument(
        { ...deps, db: tx },
        {
          actor,
          bucket,
          locale,
          document: { payload: row.data },
          ...(upload ? { upload } : {}),
          ...(existing ? { contentId: existing.contentId, baseVersionId: existing.versionId } : row.id ? { newContentId: row.id } : {}),
        },
      );
      if (!saved.ok) {
        await discard();
        refuse(row.row, fieldProblems(saved.errors.byField, saved.message));
        continue;
      }
      await recordImportedMedia(tx, bucket.id, staged?.made ?? []);
      if (saved.created) counts.created += 1;
      else counts.updated += 1;
      const now = { contentId: saved.version.contentId, versionId: saved.version.versionId, data: saved.version.data };
      named.byId.set(now.contentId, now);
      if (keyValue) {
        named.byKey.set(keyValue, now);
        await tx.query(`INSERT INTO import_keys (run_id, key_value, content_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
          run.id,
          keyValue,
          now.contentId,
        ]);
      }
    }
    await recordProblems(tx, run.id, counts.problems);
    const progressed = await tx.query(
      `UPDATE import_runs SET heartbeat_at = now(), rows_done = rows_done + $2, created = created + $3, updated = updated + $4, unchanged = unchanged + $5,
         refused = refused + $6,
         problems = CASE WHEN jsonb_array_length(problems) >= $7 THEN problems
                         ELSE (SELECT coalesce(jsonb_agg(p), '[]') FROM (SELECT p FROM jsonb_array_elements(problems || $8::jsonb) AS p LIMIT $7) kept) END,
         updated_at = now()
       WHERE id = $1 AND runner = $9
       RETURNING id`,
      [
        run.id,
        batch.length,
        counts.created,
        counts.updated,
        counts.unchanged,
        counts.refused,
        MAX_KEPT_PROBLEMS,
        JSON.stringify(counts.problems.slice(0, MAX_KEPT_PROBLEMS)),
        run.runner,
      ],
    );
    if (progressed.rows.length === 0) throw new RunTakenOver();
  });
  run.rowsDone += batch.length;
  context.onBatch?.(run.rowsDone);
}

/** A refusal's messages, one problem each ("" for the document as a whole: the refusal's own message). */
function fieldProblems(byField: Record<string, string[]>, message: string): Array<{ field: string; message: string }> {
  const problems = Object.entries(byField).flatMap(([field, messages]) => messages.map((text) => ({ field, message: text })));
  return problems.length ? problems : [{ field: "", message }];
}

const keyOf = (value: unknown): string | null => {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const text = String(value).trim();
  return text || null;
};

/** The documents a batch's rows name: by `_id` in this bucket (and ids taken in another), by the run's key. */
async function namedDocuments(
  tx: Queryable,
  run: ImportRun,
  bucket: Pick<Bucket, "id">,
  rows: ReadonlyArray<{ id: string | null; data: Record<string, unknown> }>,
): Promise<{ byId: Map<string, Named>; byKey: Map<string, Named>; elsewhere: Set<string> }> {
  const ids = rows.map((row) => row.id).filter((id): id is string => id !== null && isUuid(id));
  const { key } = run.options;
  const keys = key ? rows.map((row) => keyOf(row.data[key])).filter((value): value is string => value !== null) : [];
  const byId = new Map<string, Named>();
  const byKey = new Map<string, Named>();
  const elsewhere = new Set<string>();
  if (ids.length) {
    const { rows: found } = await tx.query<Named & { bucketId: string }>(
      `SELECT c.content_id AS "contentId", c.latest_version_id AS "versionId", v.data, c.bucket_id AS "bucketId"
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
       WHERE c.content_id = ANY($1::uuid[])`,
      [ids],
    );
    for (const document of found) {
      if (document.bucketId === bucket.id) byId.set(document.contentId, document);
      else elsewhere.add(document.contentId);
    }
  }
  if (keys.length) {
    const { rows: found } = await tx.query<Named & { keyValue: string }>(
      `SELECT k.key_value AS "keyValue", c.content_id AS "contentId", c.latest_version_id AS "versionId", v.data
       FROM import_keys k
       JOIN contents c ON c.content_id = k.content_id
       JOIN versions v ON v.version_id = c.latest_version_id
       WHERE k.run_id = $1 AND k.key_value = ANY($2::text[])`,
      [run.id, keys],
    );
    for (const document of found) byKey.set(document.keyValue, document);
  }
  return { byId, byKey, elsewhere };
}
