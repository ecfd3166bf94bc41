import { todayUtc } from "@core/calendar-date";

/*
 * The share panel's choices (core/content/shareables.ts has the form's zod schema): apart, so that the edit page
 * shows the panel without carrying zod; its check loads when the panel is opened.
 */

/** The longest a link may live. */
export const MAX_SHARE_DAYS = 90;
/** The expiry choices of the form, in days; `date` chooses a date (UTC, the link works to the end of that day). */
export const SHARE_EXPIRY_DAYS = ["1", "7", "30"] as const;
export const SHARE_EXPIRY_CHOICES = [...SHARE_EXPIRY_DAYS, "date"] as const;
export const DEFAULT_SHARE_EXPIRY = "7";
/** The form's version value for "always the latest". */
export const LATEST = "latest";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The last day a link may be valid to: today + MAX_SHARE_DAYS (UTC). */
export const lastShareDay = (now = new Date()) => todayUtc(new Date(now.getTime() + MAX_SHARE_DAYS * DAY_MS));
