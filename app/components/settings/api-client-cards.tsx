import type { SubmissionResult } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { formatWhen, When } from "~/components/when";
import { ClientOrigins } from "~/components/settings/allowed-origins";
import type { newClientLoader } from "~/routes/settings/new-client.server";

/*
 * The API clients on /settings/new-client, one card each: status, buckets, origins, last use and creation; while a
 * client is in use, its allowed origins, its preview switch and its revoke.
 */

type ClientsData = Awaited<ReturnType<typeof newClientLoader>>;

export function ApiClientCards({
  clients,
  buckets,
  originsResult,
}: {
  clients: ClientsData["clients"];
  /** The buckets by slug, for their names. */
  buckets: ClientsData["buckets"];
  /** The refused post of one client's allowed origins: its form opens with the errors. */
  originsResult: { clientId: string; result: SubmissionResult } | undefined;
}) {
  const { t, i18n } = useTranslation();
  const bucketName = (slug: string) => buckets.find((bucket) => bucket.slug === slug)?.name ?? slug;
  const names = (list: string[]) => list.map(bucketName).join(", ");
  return (
    <ul className="client-list">
      {clients.map((client) => (
        <li key={client.id} id={`client-${client.id}`} className="client-card" data-client={client.id} data-status={client.status}>
          <div className="client-head">
            <span className="client-name">{client.name}</span>
            <span className={`client-status status-${client.status}`}>
              {t(`adminClients.status.${client.status}`, { date: client.date ? formatWhen(i18n.language, client.date, true) : "" })}
            </span>
          </div>
          <code className="client-id muted">{client.id}</code>
          <p className="client-access">
            {client.readBuckets.length ? <span>{t("adminClients.reads", { buckets: names(client.readBuckets) })}</span> : null}
            {client.writeBuckets.length ? <span>{t("adminClients.writes", { buckets: names(client.writeBuckets) })}</span> : null}
            {client.allowedOrigins.length ? (
              <span>{t("delivery.clients.originsList", { origins: client.allowedOrigins.join(", ") })}</span>
            ) : null}
          </p>
          <p className="muted client-meta">
            <span>
              {t("adminClients.columns.lastUsed")}: {client.lastUsedAt ? <When iso={client.lastUsedAt} /> : t("adminClients.neverUsed")}
            </span>
            <span suppressHydrationWarning>
              {client.createdByName
                ? t("adminClients.createdOn", { date: formatWhen(i18n.language, client.createdAt), name: client.createdByName })
                : t("adminClients.createdOnAnonymous", { date: formatWhen(i18n.language, client.createdAt) })}
            </span>
          </p>
          {client.status === "revoked" || client.status === "expired" ? null : (
            <ClientOrigins
              clientId={client.id}
              origins={client.allowedOrigins}
              result={originsResult?.clientId === client.id ? originsResult.result : undefined}
            />
          )}
          {client.status === "revoked" || client.status === "expired" ? null : (
            <ClientPreview clientId={client.id} name={client.name} preview={client.preview} />
          )}
          {client.status === "revoked" || client.status === "expired" ? null : (
            <details className="client-revoke">
              <summary>{t("adminClients.revoke")}</summary>
              <Form method="post">
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="clientId" value={client.id} />
                <p className="muted">{t("adminClients.revokeWarning")}</p>
                <button type="submit" className="button danger small">
                  {t("adminClients.revokeConfirm", { name: client.name })}
                </button>
              </Form>
            </details>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * A client's preview (version=newest and release= in the delivery API): said on its card, and turned on or off with
 * one button, a plain form post.
 */
function ClientPreview({ clientId, name, preview }: { clientId: string; name: string; preview: boolean }) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="client-preview" data-client-preview={preview ? "on" : "off"}>
      <input type="hidden" name="intent" value="preview" />
      <input type="hidden" name="clientId" value={clientId} />
      <input type="hidden" name="preview" value={preview ? "off" : "on"} />
      <span className="muted">{t(preview ? "delivery.clients.previewIsOn" : "delivery.clients.previewIsOff")}</span>{" "}
      <button
        type="submit"
        className="button small"
        aria-label={t(preview ? "delivery.clients.previewTurnOffLabel" : "delivery.clients.previewTurnOnLabel", { name })}
      >
        {t(preview ? "delivery.clients.previewTurnOff" : "delivery.clients.previewTurnOn")}
      </button>
    </Form>
  );
}
