import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { requireAdmin } from "@server/web/guards";
import { getRequestState, interfaceBucketName } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { saveBucket, type DefinitionField } from "@server/content/bucket-admin";
import { checkImport } from "@server/content/bucket-transfer";
import { ImportForm } from "~/components/bucket-admin/import-form";
import { MessageList } from "~/components/bucket-admin/message-list";
import { translate, type Message } from "@core/messages";
import { checkSchemaSave } from "@server/content/schema-impact";
import { confirmedBreaking, type ImpactReport } from "@core/schema/impact";
import { ConfirmBreakingChange, SchemaImpactReport } from "~/components/schema-impact";
import type { Route } from "./+types/bucket-import";
import { pageTitle } from "~/lib/page-title";
import { readForm } from "@server/web/read-form";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { locale } = await getRequestState(request, context);
  return { title: translate(locale, "adminBuckets.import.title") };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

type ImportReply =
  | { status: "refused"; errors: Message[]; text: string }
  | { status: "confirm"; text: string; slug: string; name: string; changes: DefinitionField[]; impact?: ImpactReport; held?: boolean };

/** The definition's text: the uploaded file when one was chosen, else the pasted JSON. */
async function definitionText(formData: FormData): Promise<string> {
  const file = formData.get("file");
  if (file instanceof File && file.size > 0) return file.text();
  const text = formData.get("definition");
  return typeof text === "string" ? text : "";
}

/**
 * POST /settings/buckets/import: the definition is checked like the form (JSON, shape, slug and collection unique,
 * the schema's dialect and references). A new slug creates the bucket at once; an existing one shows what will
 * change and saves only when the admin confirms (intent=confirm, the same text posted again and checked again).
 */
export const action = pageRoute(async ({ request, context }: Route.ActionArgs) => {
  const user = await requireAdmin(request, context);
  const formData = await readForm(request);
  const text = await definitionText(formData);
  const checked = await checkImport(context.db, text, context.screens);
  if (!checked.ok) return data({ status: "refused", errors: checked.errors, text } satisfies ImportReply, { status: 422 });
  const { definition, existing, changes } = checked;
  if (existing) {
    // An update is shown first, with what its schema would break; it is saved on the admin's confirmation (and,
    // when documents break, their explicit confirmation of that too).
    const confirmed = formData.get("intent") === "confirm";
    const impact = changes.includes("jsonSchema")
      ? await checkSchemaSave(context.db, existing, definition.jsonSchema, {
          messageLocale: (await getRequestState(request, context)).locale,
          confirmed: confirmed && confirmedBreaking(formData),
          locales: definition.locales,
          signal: request.signal,
        })
      : null;
    if (!confirmed || impact) {
      const reply: ImportReply = {
        status: "confirm",
        text,
        slug: existing.slug,
        name: await interfaceBucketName(request, context, existing),
        changes,
        ...(impact ? { impact, held: confirmed } : {}),
      };
      return data(reply, { status: confirmed ? 409 : 200 });
    }
  }
  const saved = await saveBucket(context.db, user, existing, definition);
  return redirect(`/settings/buckets/${encodeURIComponent(saved.bucket.slug)}?saved`);
});

export default function BucketImport({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const reply = actionData;
  return (
    <section className="bucket-admin">
      <p className="eyebrow">
        <Link to="/settings/buckets">{t("adminBuckets.list.title")}</Link>
      </p>
      <h1>{t("adminBuckets.import.title")}</h1>
      {reply?.status === "refused" ? (
        <div className="form-error" role="alert">
          <p>{t("adminBuckets.import.refused")}</p>
          <MessageList messages={reply.errors} />
        </div>
      ) : null}
      {reply?.status === "confirm" ? (
        <div className="import-confirm notice-warning" role="status">
          <p>{t("adminBuckets.import.updates", { name: reply.name, slug: reply.slug })}</p>
          {reply.changes.length ? (
            <>
              <p>{t("adminBuckets.import.changes")}</p>
              <ul>
                {reply.changes.map((field) => (
                  <li key={field}>{t(`adminBuckets.fields.${field}`)}</li>
                ))}
              </ul>
            </>
          ) : (
            <p>{t("adminBuckets.import.noChanges")}</p>
          )}
          {reply.impact ? <SchemaImpactReport report={reply.impact} /> : null}
          <Form method="post" className="form-actions">
            {reply.impact ? <ConfirmBreakingChange report={reply.impact} required={reply.held ?? false} /> : null}
            <input type="hidden" name="definition" value={reply.text} />
            <button type="submit" name="intent" value="confirm" className="button primary">
              {t("adminBuckets.import.confirm")}
            </button>
            <Link to="/settings/buckets" className="button">
              {t("adminBuckets.import.cancel")}
            </Link>
          </Form>
        </div>
      ) : null}
      <ImportForm key={reply?.text ?? ""} text={reply?.text ?? ""} />
    </section>
  );
}
