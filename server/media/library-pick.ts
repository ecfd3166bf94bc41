import type { Db, Queryable } from "@server/db/client";
import { isUuid } from "@core/ids";
import { findVisibleMedia } from "./access";
import { itemForOwnTexts } from "./use-items";
import type { User } from "@server/accounts/users";
import { findBucketById, isBucketVisible, type Bucket } from "@server/content/buckets";
import { createDraft, findDraft, isLocalPath, pickForDraft, draftReturnUrl, type FormDraft } from "@server/content/drafts";
import { compileBucketSchema } from "@server/content/validator";
import { mediaFitErrors } from "@core/media/fit";
import type { MediaKind } from "@core/media/bounds";
import { mediaKindOfSchema } from "@core/form/field-kind";
import { LIBRARY_PICK_PARAM, type LibraryQuery } from "@core/media/library";
import { libraryItem, listLibraryRows, type LibraryBucket } from "./library";
import { schemaAtName } from "@core/schema/walk";
import type { JsonSchema } from "@core/schema/normalize";
import { translate, translateMessage, type Message } from "@core/messages";
import type { Locale } from "@core/locales";
import type { MediaReference } from "./form-upload";
import { ORIGINAL_JOIN, STORED_FACTS_COLUMNS, storedFacts, type StoredFactsRow } from "./stored-facts";

/*
 * Choosing a library item in a field (docs/media.md, "Choose from library"). The field's button keeps the form's
 * input as a draft (server/content/drafts.ts) and opens the library for that field: it lists the items of the
 * field's kind, says for the others why they do not fit (the field's own messages), and a choice returns to the
 * form with the item in the field. The save checks every item a document names for the first time the same way: the
 * user may see its bucket, it is of the field's kind and within its bounds. Items the document already uses are not
 * checked again (a field whose bounds changed since does not block other edits).
 */

/**
 * Who chooses: a user uses the items of the buckets they see (`buckets`), an API client those of the buckets it reads
 * or writes (`clientBuckets`); the seed and the CLI, neither, name items by id.
 */
export interface Chooser {
  buckets?: string[] | null;
  clientBuckets?: readonly string[];
}

type FieldErrors = Record<string, string[]>;

interface ChosenRow extends StoredFactsRow {
  contentId: string;
  bucketSlug: string;
  private: boolean;
}

const chosenItems = (db: Queryable, ids: readonly string[], documentId: string | null) =>
  db.query<ChosenRow>(
    `SELECT i.content_id AS "contentId", b.slug AS "bucketSlug", b.private, ${STORED_FACTS_COLUMNS}
     FROM media_items i JOIN media m ON m.id = i.latest_media_id ${ORIGINAL_JOIN} JOIN buckets b ON b.id = i.bucket_id
     WHERE i.content_id = ANY($1::uuid[])
       AND NOT EXISTS (SELECT 1 FROM media_uses u WHERE u.media_content_id = i.content_id AND u.document_id = $2::uuid)`,
    [ids, documentId],
  );

/**
 * The field errors of the library items a document names for the first time (`documentId`: the saved document, if
 * any): an item of a bucket the user may not see is "No such media", one that does not fit gets the field's own
 * messages. References to no item at all (a pending upload, an id of nothing) are not this check's.
 */
export async function checkChosenMedia(
  db: Queryable,
  input: { chooser: Chooser; documentId: string | null; references: readonly MediaReference[]; locale: Locale },
): Promise<FieldErrors> {
  const ids = [...new Set(input.references.map((reference) => reference.contentId.toLowerCase()))];
  if (!ids.length) return {};
  const { rows } = await chosenItems(db, ids, input.documentId);
  const items = new Map(rows.map((row) => [row.contentId, row]));
  const errors: FieldErrors = {};
  for (const reference of input.references) {
    const item = items.get(reference.contentId.toLowerCase());
    const kind = mediaKindOfSchema(reference.property);
    if (!item || !kind) continue;
    const messages = choiceErrors(item, { chooser: input.chooser, kind, property: reference.property });
    if (messages.length) (errors[reference.name] ??= []).push(...messages.map((message) => translateMessage(input.locale, message)));
  }
  return errors;
}

function choiceErrors(item: ChosenRow, field: { chooser: Chooser; kind: MediaKind; property: JsonSchema }): Message[] {
  const { buckets, clientBuckets } = field.chooser;
  const visible = clientBuckets
    ? clientBuckets.includes(item.bucketSlug)
    : buckets === undefined || isBucketVisible({ slug: item.bucketSlug, private: item.private }, { buckets });
  return visible ? mediaFitErrors(field.kind, field.property, storedFacts(item)) : [{ key: "media.noSuchMedia" }];
}

/** A field waiting for its choice: the form's draft, its bucket and the field's schema. */
export interface OpenPick {
  token: string;
  draft: FormDraft;
  bucket: Bucket;
  kind: MediaKind;
  property: JsonSchema;
  /** The field's title (or its name). */
  label: string;
}

/** The media field a form left to choose for (the user's own draft, unexpired, of a bucket they may still see). */
export async function openPick(db: Queryable, user: User, token: string | null): Promise<OpenPick | null> {
  const draft = token ? await findDraft(db, token, user.id) : null;
  const bucket = draft && (await findBucketById(db, draft.bucketId));
  if (!token || !draft || !bucket || !isBucketVisible(bucket, user)) return null;
  const property = schemaAtName(compileBucketSchema(bucket).schema, draft.field);
  const kind = property && mediaKindOfSchema(property);
  if (!property || !kind) return null;
  const label = typeof property.title === "string" && property.title ? property.title : draft.field;
  return { token, draft, bucket, kind, property, label };
}

/**
 * The media field's button without or with JavaScript: keep the form's input as a draft and answer the library's
 * address for choosing for that field; null when the field is no media field of the schema.
 */
export async function leaveForLibrary(
  db: Queryable,
  target: { user: User; bucket: Bucket; schema: JsonSchema },
  returnPath: string,
  formData: FormData,
  field: string,
): Promise<string | null> {
  const property = schemaAtName(target.schema, field);
  if (!property || !mediaKindOfSchema(property) || !isLocalPath(returnPath)) return null;
  const token = await createDraft(db, {
    userId: target.user.id,
    bucketId: target.bucket.id,
    returnPath,
    field,
    entries: textEntries(formData),
  });
  return `/media?${LIBRARY_PICK_PARAM}=${encodeURIComponent(token)}`;
}

/**
 * A media field's "Texts for this use": the form's input kept as a draft with the field naming the item whose texts
 * are this use's (use-items.ts: the item itself when no other document uses it, else a use item of it, announced to
 * `onMediaMade` once committed: a video's has jobs), and the address of that item's page, which leads back to the
 * form. Null when the field is no media field or names no id.
 */
export async function leaveForOwnTexts(
  db: Db,
  target: { user: User; bucket: Bucket; schema: JsonSchema; documentId: string | null; onMediaMade?: (kind: MediaKind) => void },
  returnPath: string,
  formData: FormData,
  field: string,
): Promise<string | null> {
  const property = schemaAtName(target.schema, field);
  const kind = property && mediaKindOfSchema(property);
  const named = formData.get(field);
  if (!kind || !isLocalPath(returnPath) || typeof named !== "string" || !isUuid(named)) return null;
  const { media } = await findVisibleMedia(db, target.user, { contentId: named.toLowerCase(), kind });
  const { contentId, created, token } = await db.transaction(async (tx) => {
    const own = await itemForOwnTexts(tx, media.contentId, target.documentId, target.user.id);
    formData.set(field, own.contentId);
    const entries = textEntries(formData);
    return { ...own, token: await createDraft(tx, { userId: target.user.id, bucketId: target.bucket.id, returnPath, field, entries }) };
  });
  if (created) target.onMediaMade?.(created);
  return `/media/${contentId}?${LIBRARY_PICK_PARAM}=${encodeURIComponent(token)}`;
}

const textEntries = (formData: FormData) =>
  [...formData.entries()].flatMap(([name, value]): Array<[string, string]> => (typeof value === "string" ? [[name, value]] : []));

/** Why each listed item cannot be chosen for the field (none: it can), in the user's language. */
function pickRefusals(field: Pick<OpenPick, "kind" | "property">, rows: readonly StoredFactsRow[], locale: Locale): string[][] {
  return rows.map((row) =>
    mediaFitErrors(field.kind, field.property, storedFacts(row)).map((message) => translateMessage(locale, message)),
  );
}

/**
 * The library for a field chosen from in place (a sub-form's dialog, which cannot leave its page): one page of the
 * items of its kind, each with why it does not fit (none: it can be chosen), as the pick page lists them.
 */
export async function pickableItems(
  db: Queryable,
  buckets: readonly LibraryBucket[],
  field: Pick<OpenPick, "kind" | "property">,
  query: LibraryQuery,
  locale: Locale,
) {
  const { rows, hasMore } = await listLibraryRows(db, buckets, { ...query, kind: field.kind, use: null, missingAlt: false });
  const names = new Map(buckets.map((bucket) => [bucket.id, bucket]));
  const refusals = pickRefusals(field, rows, locale);
  return { items: rows.map((row, index) => ({ ...libraryItem(row, names.get(row.bucketId)), refusals: refusals[index] ?? [] })), hasMore };
}

/**
 * The choice of an item for the field: checked as the save will check it; the form's page with the item in its
 * field, or the messages why not.
 */
export async function chooseForPick(
  db: Queryable,
  pick: OpenPick,
  user: User,
  contentId: string,
  locale: Locale,
): Promise<{ returnTo: string } | { errors: string[] }> {
  const { rows } = await chosenItems(db, [contentId], null);
  const item = rows[0];
  const errors: Message[] = item
    ? choiceErrors(item, { chooser: user, kind: pick.kind, property: pick.property })
    : [{ key: "media.noSuchMedia" }];
  if (!item || errors.length) return { errors: errors.map((message) => translateMessage(locale, message)) };
  const returnTo = await pickForDraft(db, pick.token, user.id, item.contentId);
  return returnTo ? { returnTo } : { errors: [translate(locale, "subForm.draftGone")] };
}

/** Back to the form without choosing. */
export const pickCancelUrl = (pick: OpenPick) => draftReturnUrl(pick.draft, pick.token);
