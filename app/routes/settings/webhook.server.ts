import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type AppLoadContext } from "react-router";
import { HttpError } from "@server/errors";
import { requireAdmin } from "@server/web/guards";
import { readForm } from "@server/web/read-form";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { bucketChoices, saveWebhookForm } from "@server/webhooks/admin";
import { deleteWebhook, findWebhook, listDeliveries, redeliver } from "@server/webhooks/store";
import { isUuid } from "@core/ids";
import { translate, type MessageKey } from "@core/messages";
import { pageNumber } from "@core/paging";
import { deliveryActionSchema, webhookEditSchema } from "@core/webhook-forms";
import type { Route } from "./+types/webhook";

/*
 * /settings/webhooks/{id}'s loader and action (webhook.tsx renders): the webhook with a page of its delivery log,
 * and its change, "Send again" and delete. In a .server module, so that the stores stay out of the browser build.
 */

export const DELIVERIES_PAGE_SIZE = 20;

async function webhookFor(context: AppLoadContext, id: string | undefined) {
  const webhook = isUuid(id) ? await findWebhook(context.db, id) : null;
  if (!webhook) throw new HttpError(404, "webhooks.errors.notFound");
  return webhook;
}

const NOTICES: Record<string, MessageKey> = {
  saved: "webhooks.saved",
  resent: "webhooks.log.resent",
};

export const webhookLoader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  await requireAdmin(request, context);
  const webhook = await webhookFor(context, params.id);
  const { locale } = await getRequestState(request, context);
  const url = new URL(request.url);
  const page = pageNumber(url.searchParams.get("page"));
  const rows = await listDeliveries(context.db, webhook.id, { limit: DELIVERIES_PAGE_SIZE + 1, offset: (page - 1) * DELIVERIES_PAGE_SIZE });
  return {
    title: translate(locale, "webhooks.editTitle", { host: new URL(webhook.url).host }),
    webhook: {
      id: webhook.id,
      url: webhook.url,
      host: new URL(webhook.url).host,
      events: webhook.events,
      allBuckets: webhook.allBuckets,
      bucketSlugs: webhook.bucketSlugs,
      createdAt: webhook.createdAt.toISOString(),
      createdByName: webhook.createdByName,
    },
    buckets: await bucketChoices(context, locale),
    page,
    hasNext: rows.length > DELIVERIES_PAGE_SIZE,
    deliveries: rows.slice(0, DELIVERIES_PAGE_SIZE).map((delivery) => ({
      id: delivery.id,
      event: delivery.event,
      bucketSlug: delivery.bucketSlug,
      contentId: delivery.contentId,
      occurredAt: delivery.occurredAt.toISOString(),
      redelivery: delivery.redeliveryOf !== null,
      status: delivery.status,
      attempts: delivery.attempts,
      nextAttemptAt: delivery.status === "pending" ? delivery.nextAttemptAt.toISOString() : null,
      lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
      lastStatus: delivery.lastStatus,
      lastError: delivery.lastError,
      lastResponse: delivery.lastResponse,
    })),
    notice: NOTICES[url.searchParams.get("done") ?? ""] ?? null,
    confirmDelete: url.searchParams.has("delete"),
  };
});

export const webhookAction = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const admin = await requireAdmin(request, context);
  const webhook = await webhookFor(context, params.id);
  const here = `/settings/webhooks/${webhook.id}`;
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent === "delete") {
    if (!(await deleteWebhook(context.db, admin, webhook.id))) throw new HttpError(404, "webhooks.errors.notFound");
    return redirect(`/settings/webhooks?${new URLSearchParams({ deleted: webhook.url }).toString()}`);
  }
  if (intent === "redeliver") {
    const submission = parseWithZod(formData, { schema: deliveryActionSchema });
    const id = submission.status === "success" ? await redeliver(context.db, webhook.id, submission.value.deliveryId) : null;
    if (!id) throw new HttpError(404, "webhooks.errors.deliveryNotFound");
    return redirect(`${here}?done=resent`);
  }
  if (intent !== "save") throw new HttpError(400, "errors.badRequest");
  const submission = parseWithZod(formData, { schema: webhookEditSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), params: null, secret: null }, { status: 400 });
  const saved = await saveWebhookForm(context, admin, webhook.id, submission.value);
  if (saved === null) throw new HttpError(404, "webhooks.errors.notFound");
  if (!saved.ok) {
    return data(
      {
        result: submission.reply({ fieldErrors: { [saved.field]: [saved.message.key] } }),
        params: saved.message.params ?? null,
        secret: null,
      },
      { status: 400 },
    );
  }
  // A generated secret is shown in this answer only: never in a URL or a log.
  if (saved.secret) return data({ result: submission.reply({ resetForm: true }), params: null, secret: saved.secret }, { status: 200 });
  return redirect(`${here}?done=saved`);
});
