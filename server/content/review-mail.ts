import type { Services } from "@server/services";
import type { Actor } from "@server/admin/activity";
import { canSendMail, sendMailInBackground } from "@server/mail/mailer";
import { translate } from "@core/messages";
import { normalizeLocale, type Locale } from "@core/locales";
import { bucketName } from "@core/content/bucket-name";
import type { Bucket } from "./buckets";
import { reviewersOf } from "./reviews";

/**
 * Tells the bucket's publishers of a request for review by mail, each in their language (docs/publishing.md). Without
 * mail set up (SMTP_URL, MAIL_FROM) nothing is sent: publishers find open requests on their home page. Sends in the
 * background and logs the outcome; answers how many publishers are told.
 */
export async function mailReviewers(
  context: Pick<Services, "db" | "config" | "logger">,
  request: {
    bucket: Pick<Bucket, "slug" | "name" | "names" | "private">;
    title: string;
    note: string;
    requester: Actor;
    /** The document's page, absolute. */
    link: string;
    fallbackLocale: Locale;
  },
): Promise<number> {
  const { db, config, logger } = context;
  if (!canSendMail(config)) return 0;
  const reviewers = (await reviewersOf(db, request.bucket)).filter((reviewer) => reviewer.id !== request.requester.id);
  for (const reviewer of reviewers) {
    const locale = normalizeLocale(reviewer.locale) ?? request.fallbackLocale;
    const params = {
      name: request.requester.name,
      title: request.title,
      bucket: bucketName(request.bucket, locale),
      note: request.note ? `${request.note}\n\n` : "",
      link: request.link,
      product: config.PRODUCT_NAME,
    };
    sendMailInBackground(
      { config, logger },
      {
        to: reviewer.email,
        subject: translate(locale, "publishing.review.mailSubject", params),
        text: translate(locale, "publishing.review.mailBody", params),
      },
      "review request mail",
      reviewer.id,
    );
  }
  return reviewers.length;
}
