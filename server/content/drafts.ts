import { parse } from "@conform-to/react";
import type { Queryable } from "@server/db/client";
import { hashToken, randomToken } from "@server/security/tokens";
import { removeHostileEntries } from "@core/form/hostile";
import { nameToSegments } from "@core/schema/path";
import { isPlainObject } from "@core/plain-object";
import { isUuid } from "@core/ids";
import { FORBIDDEN_KEYS } from "@core/content/payload";
import { OPEN_SUBFORM_FIELD, RETURN_FIELD } from "@core/form/subforms";
import { fieldKind } from "@core/form/field-kind";
import { schemaAtName } from "@core/schema/walk";
import type { JsonSchema } from "@core/schema/normalize";
import { findBucketByCollection, isBucketVisible, type Bucket } from "./buckets";
import { getLatestVersion } from "./store";
import type { User } from "@server/accounts/users";
import { translate } from "@core/messages";
import type { Locale } from "@core/locales";

/*
 * Form drafts: a popup sub-form without JavaScript (app/components/form/popup-field.tsx) is a submit button with an
 * intent; the server keeps the form's unsaved input here and sends the editor to the referenced document's own page
 * with a `return` token. That page's save sets the draft's `picked` and redirects back to the form's page with
 * `?draft=<token>`, which restores the input with the field set to the saved contentId. A draft is bound to its
 * user and bucket, returns only to the form's own path (recorded by the server, never taken from the request's
 * input), and expires.
 */

/** How long unsaved input waits for its editor to come back. */
export const FORM_DRAFT_MAX_AGE_MS = 2 * 60 * 60 * 1000;

export { OPEN_SUBFORM_FIELD, RETURN_FIELD };

export interface FormDraft {
  bucketId: string;
  returnPath: string;
  field: string;
  entries: Array<[string, string]>;
  picked: string | null;
}

/** Local paths only: one slash, no scheme or host, no backslash tricks. */
export const isLocalPath = (path: string) => /^\/(?![/\\])[^\s\\]*$/.test(path) && !path.includes("//");

/** A token as the URL carries it (random, base64url), or null. */
const readToken = (token: unknown) => (typeof token === "string" && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : null);

export async function createDraft(
  db: Queryable,
  draft: { userId: string; bucketId: string; returnPath: string; field: string; entries: Array<[string, string]> },
  now = new Date(),
): Promise<string> {
  if (!isLocalPath(draft.returnPath)) throw new Error(`Not a local path: ${draft.returnPath}`);
  const token = randomToken();
  // Drafts nobody came back for go as new ones are made (and the index keeps that cheap).
  await db.query("DELETE FROM form_drafts WHERE expires_at < $1", [now]);
  await db.query(
    `INSERT INTO form_drafts (token_hash, user_id, bucket_id, return_path, field, entries, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      hashToken(token),
      draft.userId,
      draft.bucketId,
      draft.returnPath,
      draft.field,
      JSON.stringify(draft.entries),
      new Date(now.getTime() + FORM_DRAFT_MAX_AGE_MS),
    ],
  );
  return token;
}

/** The user's draft behind a token, unless it expired (another user's is not found either). */
export async function findDraft(db: Queryable, token: unknown, userId: string, now = new Date()): Promise<FormDraft | null> {
  const valid = readToken(token);
  if (!valid) return null;
  const { rows } = await db.query<{ bucketId: string; returnPath: string; field: string; entries: unknown; picked: string | null }>(
    `SELECT bucket_id AS "bucketId", return_path AS "returnPath", field, entries, picked FROM form_drafts
     WHERE token_hash = $1 AND user_id = $2 AND expires_at >= $3`,
    [hashToken(valid), userId, now],
  );
  const row = rows[0];
  if (!row || !isLocalPath(row.returnPath)) return null;
  const entries = Array.isArray(row.entries)
    ? row.entries.filter(
        (entry): entry is [string, string] => Array.isArray(entry) && typeof entry[0] === "string" && typeof entry[1] === "string",
      )
    : [];
  return { ...row, entries };
}

/** Records the document saved on the other page; answers the form's page to return to, or null. */
export async function pickForDraft(
  db: Queryable,
  token: unknown,
  userId: string,
  contentId: string,
  now = new Date(),
): Promise<string | null> {
  const valid = readToken(token);
  if (!valid || !isUuid(contentId)) return null;
  const { rows } = await db.query<{ returnPath: string }>(
    `UPDATE form_drafts SET picked = $3 WHERE token_hash = $1 AND user_id = $2 AND expires_at >= $4 RETURNING return_path AS "returnPath"`,
    [hashToken(valid), userId, contentId, now],
  );
  const path = rows[0]?.returnPath;
  return path && isLocalPath(path) ? `${path}?draft=${encodeURIComponent(valid)}` : null;
}

/**
 * What a new document's page says above the input of a form whose document someone else deleted meanwhile
 * (server/content/save-form.ts keeps it as a draft): translated here, since its catalogue part (`history`) is not one
 * a new document's page loads.
 */
export const deletedDocumentNotice = (locale: Locale) => translate(locale, "presence.deletedKept");

/** Where the other page's Cancel goes: back to the form with its input, nothing picked. */
export const draftReturnUrl = (draft: FormDraft, token: string) => `${draft.returnPath}?draft=${encodeURIComponent(token)}`;

/**
 * A draft's entries as the form's starting value (Conform's payload, the same as a re-rendered post), the picked
 * document set into its field; hostile names are dropped as in a post.
 */
export function draftFormValue(draft: FormDraft): Record<string, unknown> {
  const formData = new FormData();
  for (const [name, value] of draft.entries) formData.append(name, value);
  removeHostileEntries(formData);
  const payload = parse(formData, { resolve: () => ({ value: {} }) }).payload as Record<string, unknown>;
  if (draft.picked) setAtName(payload, draft.field, draft.picked);
  return payload;
}

function setAtName(target: Record<string, unknown>, name: string, value: string): void {
  const segments = nameToSegments(name);
  let node: unknown = target;
  for (const [index, segment] of segments.entries()) {
    if (typeof segment === "string" && FORBIDDEN_KEYS.has(segment)) return;
    const last = index === segments.length - 1;
    if (Array.isArray(node) && typeof segment === "number") {
      if (last) node[segment] = value;
      else node = node[segment] ??= typeof segments[index + 1] === "number" ? [] : {};
    } else if (isPlainObject(node) && typeof segment === "string") {
      if (last) node[segment] = value;
      else node = node[segment] ??= typeof segments[index + 1] === "number" ? [] : {};
    } else return;
  }
}

/**
 * The popup field's no-JavaScript buttons: keep the form's input as a draft and answer the referenced document's
 * page (its latest version when the field names one of that bucket and a new one is not asked for (`fresh`), else
 * a new one) with the return token; null when the field is no popup sub-form of the schema or its bucket is not
 * the user's to open.
 */
export async function leaveForSubForm(
  db: Queryable,
  target: { user: User; bucket: Bucket; schema: JsonSchema },
  returnPath: string,
  formData: FormData,
  { field, fresh }: { field: string; fresh: boolean },
): Promise<string | null> {
  const property = schemaAtName(target.schema, field);
  if (!property || fieldKind(property) !== "popup" || typeof property._ref !== "string" || !isLocalPath(returnPath)) return null;
  const referenced = await findBucketByCollection(db, property._ref);
  if (!referenced || !isBucketVisible(referenced, target.user)) return null;
  const entries = [...formData.entries()].flatMap(([name, value]): Array<[string, string]> =>
    typeof value === "string" ? [[name, value]] : [],
  );
  const token = await createDraft(db, { userId: target.user.id, bucketId: target.bucket.id, returnPath, field, entries });
  const value = formData.get(field);
  const existing = !fresh && typeof value === "string" && isUuid(value) ? await getLatestVersion(db, referenced.id, value) : null;
  const page = existing ? `/b/${referenced.slug}/${existing.contentId}/latest` : `/b/${referenced.slug}/new`;
  return `${page}?return=${encodeURIComponent(token)}`;
}
