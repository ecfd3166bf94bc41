import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { listOpenResetRequests } from "@server/accounts/password-reset";
import { listUsers } from "@server/accounts/user-admin";
import { canSendMail } from "@server/mail/mailer";
import { requireAdmin } from "@server/web/guards";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { translate } from "@core/messages";
import { pageNumber } from "@core/paging";
import { ListHeader, Pagination, SearchForm, searchPageLink } from "~/components/list-tools";
import { BucketList, DateTime, PermissionList } from "~/components/settings/people";
import type { Route } from "./+types/users";
import { pageTitle } from "~/lib/page-title";

export const USERS_PAGE_SIZE = 25;

export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  const admin = await requireAdmin(request, context);
  const { locale } = await getRequestState(request, context);
  const url = new URL(request.url);
  const search = url.searchParams.get("q")?.trim().slice(0, 200) ?? "";
  const page = pageNumber(url.searchParams.get("page"));
  const [{ rows, total }, requests] = await Promise.all([
    listUsers(context.db, { search, limit: USERS_PAGE_SIZE, offset: (page - 1) * USERS_PAGE_SIZE }),
    // Kept, and listed, only while no mail can be sent (server/accounts/password-reset.ts).
    canSendMail(context.config) ? [] : listOpenResetRequests(context.db),
  ]);
  return {
    title: translate(locale, "adminUsers.title"),
    search,
    page,
    pages: Math.max(1, Math.ceil(total / USERS_PAGE_SIZE)),
    total,
    deleted: url.searchParams.get("deleted")?.slice(0, 320) ?? null,
    requests: requests.map((request) => ({
      userId: request.userId,
      name: request.name,
      email: request.email,
      requestedAt: request.requestedAt.toISOString(),
    })),
    users: rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      permissions: row.permissions,
      buckets: row.buckets,
      lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
      deactivated: row.deactivatedAt !== null,
      isYou: row.id === admin.id,
    })),
  };
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function Users({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { users, search, page, pages } = loaderData;
  return (
    <section className="people">
      <ListHeader title={t("adminUsers.title")} create={{ to: "/settings/invite-user", text: t("adminUsers.invite") }} />
      {loaderData.deleted ? (
        <p className="notice-success" role="status">
          {t("adminUsers.deleted", { email: loaderData.deleted })}
        </p>
      ) : null}
      {loaderData.requests.length ? (
        <section className="notice-warning reset-requests" aria-labelledby="reset-requests">
          <h2 id="reset-requests">{t("adminUsers.requests.title")}</h2>
          <p>{t("adminUsers.requests.intro")}</p>
          <ul>
            {loaderData.requests.map((request) => (
              <li key={request.userId} data-reset-request={request.userId}>
                <strong>{request.name}</strong> <span className="people-email">{request.email}</span>, {t("adminUsers.requests.askedOn")}{" "}
                <DateTime iso={request.requestedAt} />{" "}
                <Link
                  to={`/settings/users/${request.userId}#password`}
                  className="button small"
                  aria-label={t("adminUsers.requests.answerLabel", { name: request.name })}
                >
                  {t("adminUsers.requests.answer")}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="overview-tools">
        <SearchForm id="users-search" search={search} label={t("adminUsers.search")} button={t("adminUsers.searchButton")} />
        <span className="muted">{t("adminUsers.count", { count: loaderData.total })}</span>
      </div>
      {users.length === 0 ? (
        <p className="empty">{search ? t("adminUsers.noResults", { search }) : t("adminUsers.empty")}</p>
      ) : (
        <table className="content-table people-table">
          <thead>
            <tr>
              <th scope="col">{t("adminUsers.name")}</th>
              <th scope="col">{t("adminUsers.email")}</th>
              <th scope="col">{t("adminUsers.permissions")}</th>
              <th scope="col">{t("adminUsers.buckets")}</th>
              <th scope="col">{t("adminUsers.lastSignIn")}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.id} className={user.deactivated ? "is-deactivated" : undefined}>
                <td data-label={t("adminUsers.name")}>
                  <Link to={`/settings/users/${user.id}`}>{user.name}</Link>
                  {user.isYou ? <span className="muted"> ({t("adminUsers.you")})</span> : null}
                  {user.deactivated ? <span className="tag tag-deactivated">{t("adminUsers.deactivated")}</span> : null}
                </td>
                <td data-label={t("adminUsers.email")} className="people-email">
                  {user.email}
                </td>
                <td data-label={t("adminUsers.permissions")}>
                  <PermissionList permissions={user.permissions} />
                </td>
                <td data-label={t("adminUsers.buckets")}>
                  <BucketList buckets={user.buckets} />
                </td>
                <td data-label={t("adminUsers.lastSignIn")}>
                  {user.lastSignInAt ? <DateTime iso={user.lastSignInAt} /> : <span className="muted">{t("adminUsers.never")}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pagination
        label={t("settings.pages")}
        position={t("settings.pageOf", { page, pages })}
        previous={page > 1 ? { to: searchPageLink(search, page - 1), text: t("settings.previous") } : null}
        next={page < pages ? { to: searchPageLink(search, page + 1), text: t("settings.next") } : null}
      />
    </section>
  );
}
