import type { Services } from "@server/services";
import type { User } from "@server/accounts/users";
import { listAdminBuckets } from "@server/content/bucket-admin";
import type { Message } from "@core/messages";
import type { WebhookForm } from "@core/webhook-forms";
import { checkTarget } from "./address-policy";
import { createWebhook, generateWebhookSecret, updateWebhook, type Webhook } from "./store";
import { bucketName } from "@core/content/bucket-name";
import type { Locale } from "@core/locales";

/*
 * What the webhook forms' actions share (/settings/webhooks/new, /settings/webhooks/{id}): the checks only the
 * server can make (the buckets exist; the URL's host resolves to an address webhooks may go to), then the write.
 */

export type WebhookSave =
  { ok: true; webhook: Webhook | null; secret: string | null } | { ok: false; field: "url" | "buckets"; message: Message };

/** Every bucket an admin can choose, private ones too, named in the interface language `locale`. */
export async function bucketChoices(context: Services, locale: Locale) {
  return (await listAdminBuckets(context.db)).map((bucket) => ({
    slug: bucket.slug,
    name: bucketName(bucket, locale),
    private: bucket.private,
  }));
}

/**
 * Saves the form's webhook: a new one (`existingId` null) or a change. Answers the secret to show once when the
 * server generated it, or a refusal under a field.
 */
export async function saveWebhookForm(
  context: Services,
  admin: Pick<User, "id" | "name">,
  existingId: string | null,
  value: WebhookForm | (Omit<WebhookForm, "secretMode"> & { secretMode: "keep" | "generate" | "own" }),
): Promise<WebhookSave | null> {
  const known = new Set((await listAdminBuckets(context.db)).map((bucket) => bucket.slug));
  const unknown = value.scope === "some" ? value.buckets.find((slug) => !known.has(slug)) : undefined;
  if (unknown !== undefined)
    return { ok: false, field: "buckets", message: { key: "webhooks.errors.unknownBucket", params: { slug: unknown } } };
  const check = await checkTarget(new URL(value.url), context.config.WEBHOOK_ALLOW_PRIVATE_TARGETS);
  if (!check.ok) return { ok: false, field: "url", message: check.message };
  const generated = value.secretMode === "generate" ? generateWebhookSecret() : null;
  const secret = generated ?? (value.secretMode === "own" ? (value.secret ?? null) : null);
  const input = { url: value.url, events: value.events, bucketSlugs: value.scope === "all" ? null : [...new Set(value.buckets)] };
  if (existingId === null) {
    if (secret === null) throw new Error("a new webhook needs a secret");
    const webhook = await createWebhook(context.db, admin, { ...input, secret });
    context.logger.info({ webhookId: webhook.id }, "webhook created");
    return { ok: true, webhook, secret: generated };
  }
  const updated = await updateWebhook(context.db, admin, existingId, { ...input, secret });
  if (!updated) return null;
  return { ok: true, webhook: null, secret: generated };
}
