import { useTranslation } from "react-i18next";
import { ApiClientCards } from "~/components/settings/api-client-cards";
import { NewApiClientForm } from "~/components/settings/new-api-client-form";
import { CopyField } from "~/components/share/created-link";
import type { Route } from "./+types/new-client";
import { newClientAction, newClientLoader } from "./new-client.server";
import "~/styles/delivery.css";
import { pageTitle } from "~/lib/page-title";

/*
 * /settings/new-client: create an API client for an exhibit app (the token is shown once, in the answer to the
 * POST: never in a URL), the list of clients with their last use, their allowed origins (the delivery API's
 * CORS, editable), and revoke. The create form is components/settings/new-api-client-form.tsx, the clients' cards
 * components/settings/api-client-cards.tsx.
 */

export const loader = (args: Route.LoaderArgs) => newClientLoader(args);
export const action = (args: Route.ActionArgs) => newClientAction(args);

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function NewClient({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const createResult = actionData?.intent === "create" ? actionData : undefined;
  const created = createResult?.created;
  return (
    <section className="account-page">
      <h1>{t("adminClients.title")}</h1>
      <p className="account-intro">{t("adminClients.intro")}</p>

      {created ? (
        <div className="client-token notice-success" role="status">
          <h2>{t("adminClients.created.title", { name: created.name })}</h2>
          <p>{t("adminClients.created.once")}</p>
          <dl className="client-token-parts">
            <dt>{t("adminClients.created.clientId")}</dt>
            <dd>
              <code>{created.clientId}</code>
            </dd>
            <dt>{t("adminClients.created.token")}</dt>
            <dd>
              <CopyField
                value={created.token}
                label={t("adminClients.created.token")}
                copyLabel={t("adminClients.created.copyToken")}
                marker="client-token"
              />
            </dd>
          </dl>
          <p>{t("adminClients.created.usage")}</p>
          <pre className="client-token-header">
            <code>{`Authorization: Bearer ${created.token}`}</code>
          </pre>
        </div>
      ) : null}
      {loaderData.revoked ? (
        <p className="notice-success" role="status">
          {t("adminClients.revoked", { name: loaderData.revoked })}
        </p>
      ) : null}
      {loaderData.originsSaved ? (
        <p className="notice-success" role="status">
          {t("delivery.clients.originsSaved", { name: loaderData.originsSaved })}
        </p>
      ) : null}
      {loaderData.previewSaved ? (
        <p className="notice-success" role="status">
          {t(loaderData.previewSaved.preview ? "delivery.clients.previewOnSaved" : "delivery.clients.previewOffSaved", {
            name: loaderData.previewSaved.name,
          })}
        </p>
      ) : null}
      {actionData?.intent === "revoke" ? (
        <div className="form-error" role="alert">
          <p>{t("adminClients.errors.alreadyRevoked")}</p>
        </div>
      ) : null}

      <h2>{t("adminClients.createTitle")}</h2>
      <NewApiClientForm
        buckets={loaderData.buckets}
        today={loaderData.today}
        lastResult={createResult?.result}
        unknown={createResult?.unknown ?? ""}
      />

      <h2>{t("adminClients.listTitle")}</h2>
      {loaderData.clients.length === 0 ? (
        <p className="empty">{t("adminClients.empty")}</p>
      ) : (
        <ApiClientCards
          clients={loaderData.clients}
          buckets={loaderData.buckets}
          originsResult={actionData?.intent === "origins" ? actionData : undefined}
        />
      )}
    </section>
  );
}
