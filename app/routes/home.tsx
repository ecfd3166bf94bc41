import type { RouteHandle } from "@core/route-handle";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { overviewPath, savedDocumentPath } from "@core/content/screens";
import { bucketName } from "@core/content/bucket-name";
import { requireUser } from "@server/web/guards";
import { getRequestState } from "@server/web/request-state";
import { waitingReviews } from "@server/content/reviews";
import { useVersionTime } from "~/components/history/format";
import { useClientLinks } from "~/lib/client-links";
import { useRootData } from "~/lib/root-data";
import type { Route } from "./+types/home";
import { metaLocale, pageTitle } from "~/lib/page-title";
import { translate } from "@core/messages";
import { mayPublish } from "@core/content/publication";

export const handle = { messages: ["pages"] } satisfies RouteHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const { locale } = await getRequestState(request, context);
  // Publishers see the documents editors asked them to review (docs/publishing.md), newest request first.
  const reviews = mayPublish(user.permissions)
    ? (await waitingReviews(context.db, user)).map((review) => ({
        id: review.id,
        path: savedDocumentPath(review.bucket, review.contentId),
        title: review.title,
        bucketName: bucketName(review.bucket, locale),
        requesterName: review.requesterName,
        createdAt: review.createdAt.toISOString(),
        note: review.note,
      }))
    : [];
  // Sent here from an admin page (requireAdmin): the page says why.
  return { adminOnly: new URL(request.url).searchParams.get("notice") === "admin-only", reviews };
}

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, translate(metaLocale(matches), "home.title"));

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRootData();
  const buckets = root?.buckets ?? [];
  const publisher = mayPublish(root?.user?.permissions ?? []);
  // Plain links that React Router follows (lib/client-links.ts): a <Link> per card cost a tenth of the page.
  const list = useRef<HTMLElement>(null);
  useClientLinks(list);
  return (
    <section ref={list}>
      <h1>{t("home.title")}</h1>
      {loaderData.adminOnly ? (
        <p className="notice-warning" role="status">
          {t("home.adminOnly")}
        </p>
      ) : null}
      {loaderData.reviews.length ? <WaitingReviews reviews={loaderData.reviews} /> : null}
      {buckets.length === 0 ? (
        <p className="empty">{t("home.noBuckets")}</p>
      ) : (
        <>
          <p>{t("home.intro")}</p>
          <ul className="bucket-grid">
            {buckets.map((bucket) => (
              <li key={bucket.slug}>
                <a href={overviewPath(bucket)} className="bucket-card" data-view-transition>
                  <span className="bucket-name">{bucket.name}</span>
                  {bucket.singleton ? <span className="bucket-kind">{t("home.singleton")}</span> : null}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
      {publisher ? (
        <p className="home-releases">
          <a href="/releases">{t("nav.releases")}</a>
          {" · "}
          {t("home.releases")}
        </p>
      ) : null}
    </section>
  );
}

/** The requests for review open in the buckets the publisher may see: each document with who asked, when and why. */
function WaitingReviews({ reviews }: { reviews: Route.ComponentProps["loaderData"]["reviews"] }) {
  const { t } = useTranslation();
  const time = useVersionTime();
  return (
    <section className="home-reviews" aria-labelledby="home-reviews-title">
      <h2 id="home-reviews-title">{t("home.reviews")}</h2>
      <ul>
        {reviews.map((review) => (
          <li key={review.id}>
            <a href={review.path}>{review.title || review.bucketName}</a>
            <span className="muted">
              {" "}
              {t("home.reviewEntry", { bucket: review.bucketName, name: review.requesterName, when: time(review.createdAt) })}
            </span>
            {review.note ? <q className="publication-review-note">{review.note}</q> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
