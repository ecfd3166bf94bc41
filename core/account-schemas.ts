import { z } from "zod";
import { isCalendarDate, todayUtc } from "./calendar-date";
import { SUPPORTED_LOCALES } from "./locales";
import { PASSWORD_MIN_LENGTH } from "./auth-schemas";
import { originsField } from "./delivery/origins";

export { isCalendarDate, todayUtc };

/*
 * The forms of /profile, /password-reset, a user's password on /settings/users/{id} and /settings/new-client, shared
 * by the browser (Conform's onValidate) and the actions. Messages are catalogue keys; a new password follows
 * signup's rules (PASSWORD_MIN_LENGTH).
 */

const email = z
  .string({ message: "login.errors.emailRequired" })
  .trim()
  .min(1, "login.errors.emailRequired")
  .check(z.email("login.errors.emailInvalid"));

const newPassword = z
  .string({ message: "login.errors.passwordRequired" })
  .min(PASSWORD_MIN_LENGTH, "signup.errors.passwordTooShort")
  .max(1024);

const confirmPassword = z.string({ message: "profile.errors.confirmRequired" }).min(1, "profile.errors.confirmRequired");
const confirmMismatch = { message: "profile.errors.confirmMismatch", path: ["confirmPassword"] };

export const profileSchema = z.object({
  intent: z.literal("details"),
  name: z
    .string({ message: "signup.errors.nameRequired" })
    .trim()
    .min(1, "signup.errors.nameRequired")
    .max(200, "profile.errors.nameTooLong"),
  locale: z.enum(SUPPORTED_LOCALES, { message: "profile.errors.localeRequired" }),
});

export const passwordChangeSchema = z
  .object({
    intent: z.literal("password"),
    currentPassword: z.string({ message: "profile.errors.currentRequired" }).min(1, "profile.errors.currentRequired"),
    newPassword,
    confirmPassword,
  })
  .refine((value) => value.confirmPassword === value.newPassword, confirmMismatch);

export const passwordResetRequestSchema = z.object({ email });

export const passwordResetSchema = z
  .object({ password: newPassword, confirmPassword })
  .refine((value) => value.confirmPassword === value.password, confirmMismatch);

/** The password an admin sets for a user (/settings/users/{id}): the same rules, typed twice. */
export const adminPasswordSchema = z
  .object({ intent: z.literal("setPassword"), password: newPassword, confirmPassword })
  .refine((value) => value.confirmPassword === value.password, confirmMismatch);

/** An API client stops working at the end of its expiry date (UTC). */
export function clientExpiry(date: string): Date {
  return new Date(`${date}T23:59:59.999Z`);
}

const slugs = z.array(z.string().trim().min(1).max(200)).max(1000).default([]);

export const apiClientSchema = z
  .object({
    intent: z.literal("create"),
    name: z
      .string({ message: "adminClients.errors.nameRequired" })
      .trim()
      .min(1, "adminClients.errors.nameRequired")
      .max(200, "adminClients.errors.nameTooLong"),
    read: slugs,
    write: slugs,
    expiresOn: z
      .string()
      .trim()
      .optional()
      .refine((value) => value === undefined || isCalendarDate(value), "adminClients.errors.expiryInvalid")
      .refine((value) => value === undefined || !isCalendarDate(value) || value >= todayUtc(), "adminClients.errors.expiryPast"),
    origins: originsField,
    // A checkbox: "on" when ticked, absent when not. Preview shows drafts and releases to the client (docs/delivery.md).
    preview: z
      .string()
      .optional()
      .transform((value) => value === "on"),
  })
  .refine((value) => value.read.length + value.write.length > 0, { message: "adminClients.errors.bucketsRequired", path: ["read"] });

/** A client's preview turned on or off from its card on /settings/new-client. */
export const clientPreviewSchema = z.object({ intent: z.literal("preview"), clientId: z.uuid(), preview: z.enum(["on", "off"]) });

export const revokeClientSchema = z.object({ intent: z.literal("revoke"), clientId: z.uuid() });
