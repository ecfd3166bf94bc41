import { z } from "zod";

/** Shared by the forms (browser) and the actions (server). Messages are i18n keys. */
export const loginSchema = z.object({
  email: z
    .string({ message: "login.errors.emailRequired" })
    .trim()
    .min(1, "login.errors.emailRequired")
    .check(z.email("login.errors.emailInvalid")),
  password: z.string({ message: "login.errors.passwordRequired" }).min(1, "login.errors.passwordRequired"),
  from_url: z.string().optional(),
});

export const PASSWORD_MIN_LENGTH = 8;

export const signupSchema = z.object({
  name: z.string({ message: "signup.errors.nameRequired" }).trim().min(1, "signup.errors.nameRequired").max(200),
  email: z
    .string({ message: "login.errors.emailRequired" })
    .trim()
    .min(1, "login.errors.emailRequired")
    .check(z.email("login.errors.emailInvalid")),
  password: z.string({ message: "login.errors.passwordRequired" }).min(PASSWORD_MIN_LENGTH, "signup.errors.passwordTooShort").max(1024),
  invitationCode: z.string({ message: "signup.errors.invitationRequired" }).trim().min(1, "signup.errors.invitationRequired"),
});
