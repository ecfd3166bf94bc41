import type { Services } from "@server/services";
import type { Locale } from "@core/locales";
import { translate } from "@core/messages";
import type { InvitationInput } from "@core/people-forms";
import { recordActivity } from "@server/admin/activity";
import { canSendMail, sendMail } from "@server/mail/mailer";
import { createInvitation, revokeInvitation } from "./invitations";
import type { User } from "./users";

/** What happened to the invitation's mail: sent, failed (the code is still shown), or not attempted and why. */
export type InvitationMailState = "sent" | "failed" | "noEmail" | "notConfigured";

export interface CreatedInvitation {
  code: string;
  link: string;
  email: string | null;
  expiresAt: Date;
  mail: InvitationMailState;
}

/** Absolute links in mail: PUBLIC_URL when it is set (behind a proxy the request's host may be an inner one). */
export function publicOrigin(requestUrl: string, context: Pick<Services, "config">): string {
  return new URL(context.config.PUBLIC_URL ?? requestUrl).origin;
}

export const signupLink = (origin: string, code: string) => `${origin}/signup?${new URLSearchParams({ code }).toString()}`;

/**
 * Creates the invitation (and its activity entry) in one transaction, then mails it when SMTP is configured and an
 * email was given. A mail that fails loses nothing: the invitation stands and its code is answered for the admin
 * to pass on. The code is never logged.
 */
export async function inviteUser(
  context: Pick<Services, "db" | "config" | "logger">,
  actor: User,
  input: Omit<InvitationInput, "buckets"> & { buckets: string[] | null },
  options: { origin: string; locale: Locale },
): Promise<CreatedInvitation> {
  const email = input.email ?? null;
  const invitation = await context.db.transaction(async (tx) => {
    const created = await createInvitation(tx, {
      email,
      permissions: input.permissions,
      buckets: input.buckets,
      createdBy: actor.id,
      ttlDays: input.days,
      locale: options.locale,
    });
    await recordActivity(tx, actor, {
      area: "invitation",
      action: "created",
      subject: email ?? "",
      details: { id: created.id, permissions: input.permissions, buckets: input.buckets, days: input.days },
    });
    return created;
  });
  const link = signupLink(options.origin, invitation.code);
  let mail: InvitationMailState = email ? "notConfigured" : "noEmail";
  if (email && canSendMail(context.config)) {
    try {
      await sendMail(
        context.config,
        invitationMail(options.locale, {
          to: email,
          inviter: actor.name,
          productName: context.config.PRODUCT_NAME,
          link,
          code: invitation.code,
          origin: options.origin,
          expiresAt: invitation.expiresAt,
        }),
      );
      mail = "sent";
    } catch (error) {
      // The reason only, never the mail: its body holds the code, which must not reach a log.
      context.logger.warn(
        { invitationId: invitation.id, reason: error instanceof Error ? error.message : String(error) },
        "invitation mail failed",
      );
      mail = "failed";
    }
  }
  return { code: invitation.code, link, email, expiresAt: invitation.expiresAt, mail };
}

/** The invitation mail in the inviter's language: a subject and a plain-text body with the link and the code. */
export function invitationMail(
  locale: Locale,
  values: { to: string; inviter: string; productName: string; link: string; code: string; origin: string; expiresAt: Date },
) {
  const expires = new Intl.DateTimeFormat(locale, { dateStyle: "long" }).format(values.expiresAt);
  const params = {
    inviter: values.inviter,
    product: values.productName,
    link: values.link,
    code: values.code,
    signupUrl: `${values.origin}/signup`,
    expires,
  };
  return {
    to: values.to,
    subject: translate(locale, "adminInvitations.mail.subject", params),
    text: translate(locale, "adminInvitations.mail.body", params),
  };
}

/** Revokes an open invitation (a revoked code cannot be redeemed); false when it was no longer open. */
export async function revokeInvitationAs(context: Pick<Services, "db">, actor: User, id: string): Promise<boolean> {
  return context.db.transaction(async (tx) => {
    const revoked = await revokeInvitation(tx, id);
    if (!revoked) return false;
    await recordActivity(tx, actor, { area: "invitation", action: "revoked", subject: revoked.email ?? "", details: { id } });
    return true;
  });
}
