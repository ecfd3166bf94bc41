import { z } from "zod";

/*
 * The forms of the people screens (/settings/users/{id}, /settings/invite-user), shared by the browser
 * (Conform's onValidate) and the actions. Messages are catalogue keys.
 */

/** Spec §6: permissions are strings: user, admin, dev; `publish` (docs/publishing.md) lets a user put content live. */
export const PERMISSIONS = ["user", "publish", "admin", "dev"] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const INVITATION_DAYS = { default: 7, min: 1, max: 90 } as const;

const email = z
  .string({ message: "login.errors.emailRequired" })
  .trim()
  .min(1, "login.errors.emailRequired")
  .max(320, "login.errors.emailInvalid")
  .check(z.email("login.errors.emailInvalid"));

const isPermission = (value: string): value is Permission => (PERMISSIONS as readonly string[]).includes(value);

/** An unknown value is the group's error (shown under the checkboxes), not one of an item nobody can see. */
const permissions = z
  .array(z.string(), { message: "adminUsers.errors.permissionsRequired" })
  .min(1, "adminUsers.errors.permissionsRequired")
  .refine((values) => values.every(isPermission), "adminUsers.errors.unknownPermission")
  .transform((values) => [...new Set(values.filter(isPermission))]);

/** Bucket slugs; none chosen means every bucket (the user's list is then null). */
const buckets = z.array(z.string().trim().min(1).max(200)).max(1000);

export const userEditSchema = z.object({
  name: z
    .string({ message: "adminUsers.errors.nameRequired" })
    .trim()
    .min(1, "adminUsers.errors.nameRequired")
    .max(200, "adminUsers.errors.nameTooLong"),
  email,
  permissions,
  buckets,
});
export type UserEdit = z.output<typeof userEditSchema>;

export const invitationSchema = z.object({
  email: email.optional(),
  permissions,
  buckets,
  days: z
    .number({ message: "adminInvitations.errors.days" })
    .int("adminInvitations.errors.days")
    .min(INVITATION_DAYS.min, "adminInvitations.errors.days")
    .max(INVITATION_DAYS.max, "adminInvitations.errors.days"),
});
export type InvitationInput = z.output<typeof invitationSchema>;

/** A buckets list as stored: null (every bucket) when none was chosen. */
export const bucketsOrAll = (slugs: readonly string[]): string[] | null => (slugs.length ? [...new Set(slugs)] : null);
