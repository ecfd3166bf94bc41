import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type AppLoadContext } from "react-router";
import { z } from "zod";
import { requireAdmin } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { pageRoute } from "@server/web/respond";
import { getRequestState } from "@server/web/request-state";
import { translate } from "@core/messages";
import { resolveBucketSlug } from "@server/content/buckets";
import {
  checkBucketDefinition,
  checkSchemaText,
  collectionNames,
  deleteBucket,
  findAdminBucket,
  saveBucket,
} from "@server/content/bucket-admin";
import { schemaHistory, schemaVersionByNumber } from "@server/content/schema-history";
import { schemaDiff } from "@server/content/schema-diff";
import { checkSchemaSave } from "@server/content/schema-impact";
import { confirmedBreaking, type ImpactReport } from "@core/schema/impact";
import { bucketFormSchema, parseLocaleList, schemaText } from "@core/content/bucket-definition";
import type { Message } from "@core/messages";
import type { JsonSchema } from "@core/schema/normalize";
import { bucketName } from "@core/content/bucket-name";
import { readForm } from "@server/web/read-form";

/** The schema a new bucket starts from. */
export const NEW_BUCKET_SCHEMA = { type: "object", properties: {}, required: [] };

interface Args {
  request: Request;
  context: AppLoadContext;
  params: { slug?: string };
}

/** A preview of the form a schema produces: the schema as written (the page normalises it) and the locales. */
export interface SchemaPreview {
  schema: JsonSchema;
  locales: string[];
}

/** A text field of the post ("" when missing or a file). */
function textField(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}

const positiveInt = (value: string | null) => (value && /^\d{1,9}$/.test(value) ? Number(value) : null);

/** /settings/buckets/{slug}: the form, the schema history and a diff between two versions (?from=&to=). */
export const bucketAdminLoader = pageRoute(async ({ request, context, params }: Args) => {
  await requireAdmin(request, context);
  const { locale } = await getRequestState(request, context);
  const slug = params.slug ?? "";
  const collections = await collectionNames(context.db);
  if (slug === "new") {
    return {
      title: translate(locale, "adminBuckets.edit.newTitle"),
      isNew: true as const,
      bucket: null,
      defaultValue: {
        slug: "",
        name: "",
        names: { en: "", nl: "" },
        singleton: "",
        private: "",
        collectionName: "",
        locales: "nl, en",
        screen: "generic",
        jsonSchema: schemaText(NEW_BUCKET_SCHEMA),
      },
      collections,
      history: [],
      diff: null,
      saved: false,
      preview: { schema: NEW_BUCKET_SCHEMA, locales: ["nl", "en"] } satisfies SchemaPreview,
    };
  }
  const bucket = await findAdminBucket(context.db, slug);
  if (!bucket) {
    // The admin page of a renamed bucket moves with it.
    const renamed = await resolveBucketSlug(context.db, slug);
    if (renamed) throw redirect(`/settings/buckets/${encodeURIComponent(renamed.bucket.slug)}${new URL(request.url).search}`, 301);
    throw new HttpError(404, "errors.notFound");
  }
  const history = await schemaHistory(context.db, bucket.id);
  const search = new URL(request.url).searchParams;
  const from = positiveInt(search.get("from"));
  const to = positiveInt(search.get("to"));
  let diff: { from: number; to: number; lines: Awaited<ReturnType<typeof schemaDiff>> } | null = null;
  if (from !== null && to !== null) {
    const [older, newer] = await Promise.all([
      schemaVersionByNumber(context.db, bucket.id, from),
      schemaVersionByNumber(context.db, bucket.id, to),
    ]);
    if (!older || !newer) throw new HttpError(404, "errors.notFound");
    diff = { from, to, lines: await schemaDiff(older.jsonSchema, newer.jsonSchema) };
  }
  return {
    title: translate(locale, "adminBuckets.edit.title", { name: bucketName(bucket, locale) }),
    isNew: false as const,
    bucket: {
      slug: bucket.slug,
      name: bucketName(bucket, locale),
      contentCount: bucket.contentCount,
      singleton: bucket.singleton,
      private: bucket.private,
    },
    defaultValue: {
      slug: bucket.slug,
      name: bucket.name,
      names: { en: bucket.names.en ?? "", nl: bucket.names.nl ?? "" },
      singleton: bucket.singleton ? "on" : "",
      private: bucket.private ? "on" : "",
      collectionName: bucket.collectionName,
      locales: bucket.locales.join(", "),
      screen: bucket.screen,
      jsonSchema: schemaText(bucket.jsonSchema),
    },
    collections,
    history: history.map((version) => ({ ...version, createdAt: version.createdAt.toISOString() })),
    diff,
    saved: search.has("saved"),
    preview: { schema: bucket.jsonSchema, locales: bucket.locales } satisfies SchemaPreview,
  };
});

export type BucketAdminData = Awaited<ReturnType<typeof bucketAdminLoader>>;

export interface BucketAdminReply {
  result?: SubmissionResult;
  schemaErrors: Message[];
  preview?: SchemaPreview | null;
  deleteError?: Message;
  /** The save was held: the new schema breaks stored documents and the post did not confirm it. */
  impact?: ImpactReport;
}

/** Everything the form posted, kept as it was (a preview shows no field errors). */
const anything = z.record(z.string(), z.unknown());

/**
 * A post of the bucket form: intent "save" (the default), "preview" (the no-JavaScript preview: the page again with
 * the form the schema produces and the input kept) or "delete".
 */
export const bucketAdminAction = pageRoute(async ({ request, context, params }: Args) => {
  const user = await requireAdmin(request, context);
  const slug = params.slug ?? "";
  const existing = slug === "new" ? null : await findAdminBucket(context.db, slug);
  if (slug !== "new" && !existing) {
    const renamed = await resolveBucketSlug(context.db, slug);
    if (renamed) throw redirect(`/settings/buckets/${encodeURIComponent(renamed.bucket.slug)}`, 308);
    throw new HttpError(404, "errors.notFound");
  }
  const formData = await readForm(request);
  const intent = formData.get("intent");

  if (intent === "delete") {
    if (!existing) throw new HttpError(404, "errors.notFound");
    const confirmSlug = textField(formData, "confirmSlug");
    try {
      await deleteBucket(context, user, existing.slug, confirmSlug);
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) {
        return data({ schemaErrors: [], deleteError: { key: error.key, params: error.params } } satisfies BucketAdminReply, {
          status: 409,
        });
      }
      throw error;
    }
    return redirect(`/settings/buckets?deleted=${encodeURIComponent(existing.slug)}`);
  }

  const text = textField(formData, "jsonSchema");
  const localesText = textField(formData, "locales");
  const locales = parseLocaleList(localesText);
  const collections = await collectionNames(context.db);
  const ownCollection = textField(formData, "collectionName").trim();
  const known = [...collections.filter((name) => name !== existing?.collectionName), ownCollection].filter(Boolean);

  if (intent === "preview") {
    const checked = checkSchemaText(text, locales.length ? locales : ["en"], known);
    const reply = parseWithZod(formData, { schema: anything }).reply();
    const preview = checked.schema ? { schema: checked.schema, locales: locales.length ? locales : ["en"] } : null;
    return data({ result: reply, schemaErrors: checked.errors, preview } satisfies BucketAdminReply, {
      status: checked.schema ? 200 : 422,
    });
  }

  const submission = parseWithZod(formData, { schema: bucketFormSchema });
  if (submission.status !== "success") {
    // The schema's own problems show too (or its preview), so that one post tells everything.
    const schema = text.trim() ? checkSchemaText(text, locales.length ? locales : ["en"], known) : { schema: null, errors: [] };
    const preview = schema.schema ? { schema: schema.schema, locales: locales.length ? locales : ["en"] } : null;
    return data({ result: submission.reply(), schemaErrors: schema.errors, preview } satisfies BucketAdminReply, { status: 400 });
  }
  const { jsonSchema: jsonSchemaText, singleton, private: isPrivate, ...fields } = submission.value;
  const checked = await checkBucketDefinition(
    context.db,
    { ...fields, singleton: singleton ?? false, private: isPrivate ?? false, jsonSchemaText },
    existing,
    context.screens,
  );
  if (!checked.ok) {
    // A slug or collection name in use is a conflict; what the chosen screen needs is an invalid definition.
    const taken = Boolean(checked.fieldErrors.slug ?? checked.fieldErrors.collectionName);
    const preview = checked.schemaErrors.length ? null : { schema: JSON.parse(jsonSchemaText) as JsonSchema, locales: fields.locales };
    return data(
      {
        result: submission.reply({ fieldErrors: checked.fieldErrors }),
        schemaErrors: checked.schemaErrors,
        preview,
      } satisfies BucketAdminReply,
      { status: taken ? 409 : 422 },
    );
  }

  // A changed schema that would break stored documents is saved only once the admin has seen what breaks and said so.
  if (existing) {
    const impact = await checkSchemaSave(context.db, existing, checked.definition.jsonSchema, {
      messageLocale: (await getRequestState(request, context)).locale,
      confirmed: confirmedBreaking(formData),
      locales: checked.definition.locales,
      signal: request.signal,
    });
    if (impact) {
      const preview = { schema: checked.definition.jsonSchema as JsonSchema, locales: checked.definition.locales };
      return data({ result: submission.reply(), schemaErrors: [], preview, impact } satisfies BucketAdminReply, { status: 409 });
    }
  }
  const saved = await saveBucket(context.db, user, existing, checked.definition);
  return redirect(`/settings/buckets/${encodeURIComponent(saved.bucket.slug)}?saved`);
});
