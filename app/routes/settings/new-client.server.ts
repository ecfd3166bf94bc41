import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import {
  createApiClient,
  listApiClients,
  revokeApiClient,
  setClientOrigins,
  setClientPreview,
  type ApiClient,
} from "@server/accounts/api-clients";
import { requireAdmin } from "@server/web/guards";
import { readForm } from "@server/web/read-form";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { apiClientSchema, clientExpiry, clientPreviewSchema, revokeClientSchema, todayUtc } from "@core/account-schemas";
import { bucketName } from "@core/content/bucket-name";
import { clientOriginsSchema } from "@core/delivery/origins";
import { translate } from "@core/messages";
import type { Route } from "./+types/new-client";

/*
 * /settings/new-client's loader and action (new-client.tsx renders): the clients with their status and last use,
 * and creating one (its token in this answer only), revoking one and setting its allowed origins. In a .server
 * module, so that the stores stay out of the browser build.
 */

type ClientStatus = "active" | "expires" | "expired" | "revoked";

function statusOf(client: ApiClient, now: Date): { status: ClientStatus; date: string | null } {
  if (client.revokedAt) return { status: "revoked", date: client.revokedAt.toISOString() };
  if (client.expiresAt && client.expiresAt <= now) return { status: "expired", date: client.expiresAt.toISOString() };
  if (client.expiresAt) return { status: "expires", date: client.expiresAt.toISOString() };
  return { status: "active", date: null };
}

export const newClientLoader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  await requireAdmin(request, context);
  const { buckets, locale } = await getRequestState(request, context);
  const now = new Date();
  const clients = (await listApiClients(context.db)).map((client) => ({
    id: client.id,
    name: client.name,
    readBuckets: client.readBuckets,
    writeBuckets: client.writeBuckets,
    allowedOrigins: client.allowedOrigins,
    preview: client.preview,
    createdAt: client.createdAt.toISOString(),
    createdByName: client.createdByName,
    lastUsedAt: client.lastUsedAt?.toISOString() ?? null,
    ...statusOf(client, now),
  }));
  const url = new URL(request.url);
  const revokedId = url.searchParams.get("revoked");
  const originsId = url.searchParams.get("origins");
  const previewId = url.searchParams.get("preview");
  return {
    title: translate(locale, "adminClients.title"),
    clients,
    buckets: buckets.map((bucket) => ({ slug: bucket.slug, name: bucketName(bucket, locale), private: bucket.private })),
    revoked: clients.find((client) => client.id === revokedId && client.status === "revoked")?.name ?? null,
    originsSaved: clients.find((client) => client.id === originsId)?.name ?? null,
    previewSaved:
      clients.filter((client) => client.id === previewId).map((client) => ({ name: client.name, preview: client.preview }))[0] ?? null,
    today: todayUtc(now),
  };
});

export const newClientAction = pageRoute(async ({ request, context }: Route.ActionArgs) => {
  const admin = await requireAdmin(request, context);
  const formData = await readForm(request);
  if (formData.get("intent") === "revoke") {
    const submission = parseWithZod(formData, { schema: revokeClientSchema });
    const revoked = submission.status === "success" && (await revokeApiClient(context.db, admin, submission.value.clientId));
    if (!revoked) return data({ intent: "revoke" as const, revokeFailed: true }, { status: 404 });
    throw redirect(`/settings/new-client?revoked=${encodeURIComponent(submission.value.clientId)}`);
  }
  if (formData.get("intent") === "origins") {
    const submission = parseWithZod(formData, { schema: clientOriginsSchema });
    if (submission.status !== "success") {
      const clientId = formData.get("clientId");
      return data(
        { intent: "origins" as const, clientId: typeof clientId === "string" ? clientId : "", result: submission.reply() },
        { status: 400 },
      );
    }
    if (!(await setClientOrigins(context.db, admin, submission.value.clientId, submission.value.origins))) {
      return data({ intent: "revoke" as const, revokeFailed: true }, { status: 404 });
    }
    throw redirect(`/settings/new-client?origins=${encodeURIComponent(submission.value.clientId)}`);
  }
  if (formData.get("intent") === "preview") {
    const submission = parseWithZod(formData, { schema: clientPreviewSchema });
    const saved =
      submission.status === "success" &&
      (await setClientPreview(context.db, admin, submission.value.clientId, submission.value.preview === "on"));
    if (!saved) return data({ intent: "revoke" as const, revokeFailed: true }, { status: 404 });
    throw redirect(`/settings/new-client?preview=${encodeURIComponent(submission.value.clientId)}#client-${submission.value.clientId}`);
  }
  const submission = parseWithZod(formData, { schema: apiClientSchema });
  if (submission.status !== "success")
    return data({ intent: "create" as const, result: submission.reply(), created: null, unknown: null }, { status: 400 });
  const { buckets } = await getRequestState(request, context);
  const known = new Set(buckets.map((bucket) => bucket.slug));
  const unknown = [...submission.value.read, ...submission.value.write].find((slug) => !known.has(slug));
  if (unknown !== undefined) {
    return data(
      {
        intent: "create" as const,
        result: submission.reply({ fieldErrors: { read: ["adminClients.errors.unknownBucket"] } }),
        created: null,
        unknown,
      },
      { status: 400 },
    );
  }
  const { client, token } = await createApiClient(context.db, admin, {
    name: submission.value.name,
    readBuckets: submission.value.read,
    writeBuckets: submission.value.write,
    allowedOrigins: submission.value.origins,
    preview: submission.value.preview,
    expiresAt: submission.value.expiresOn ? clientExpiry(submission.value.expiresOn) : null,
  });
  context.logger.info({ clientId: client.id }, "API client created");
  // Rendered in this answer only: the secret is never in a URL, a log or the database.
  return data(
    {
      intent: "create" as const,
      result: submission.reply({ resetForm: true }),
      created: { name: client.name, clientId: client.id, token },
      unknown: null,
    },
    { status: 201 },
  );
});
