import { z } from "zod";
import { isCalendarDate, todayUtc } from "@core/calendar-date";
import { DEFAULT_SHARE_EXPIRY, LATEST, lastShareDay, MAX_SHARE_DAYS, SHARE_EXPIRY_CHOICES, SHARE_EXPIRY_DAYS } from "./share-choices";
import type { DocumentRow } from "./version-diff";
import { isUuid } from "@core/ids";

/*
 * Shareable previews (spec §2 /shareables/{id}): a read-only link to one version of a document, or to whatever
 * its latest version is when it is opened, that works without signing in until it expires or is revoked. The
 * form (the edit page's share panel, posted to /shareables) and the list's revoke, shared by browser and server.
 */

export { DEFAULT_SHARE_EXPIRY, LATEST, lastShareDay, MAX_SHARE_DAYS, SHARE_EXPIRY_CHOICES, SHARE_EXPIRY_DAYS };

const DAY_MS = 24 * 60 * 60 * 1000;

/** A link's expiry: a choice of days, or "date" with the day it ends (UTC), checked by checkExpiryDate. */
const expiryFields = {
  expiry: z.enum(SHARE_EXPIRY_CHOICES, { message: "shareables.errors.expiryInvalid" }),
  expiresOn: z.string().trim().optional(),
};

function checkExpiryDate(value: { expiry: string; expiresOn?: string }, ctx: z.RefinementCtx): void {
  if (value.expiry !== "date") return;
  const date = value.expiresOn ?? "";
  if (!date) ctx.addIssue({ code: "custom", message: "shareables.errors.dateRequired", path: ["expiresOn"] });
  else if (!isCalendarDate(date)) ctx.addIssue({ code: "custom", message: "shareables.errors.dateInvalid", path: ["expiresOn"] });
  else if (date < todayUtc()) ctx.addIssue({ code: "custom", message: "shareables.errors.datePast", path: ["expiresOn"] });
  else if (date > lastShareDay()) ctx.addIssue({ code: "custom", message: "shareables.errors.dateTooLate", path: ["expiresOn"] });
}

export const createShareSchema = z
  .object({
    intent: z.literal("create"),
    bucket: z.string().trim().min(1).max(200),
    contentId: z.uuid(),
    version: z
      .string({ message: "shareables.errors.versionInvalid" })
      .refine((value) => value === LATEST || isUuid(value), "shareables.errors.versionInvalid"),
    ...expiryFields,
  })
  .superRefine(checkExpiryDate);

export type CreateShareInput = z.infer<typeof createShareSchema>;

/** A link to a release (posted to /shareables with `releaseId`, from the release's page): the same expiry choices. */
export const createReleaseShareSchema = z
  .object({
    intent: z.literal("create"),
    releaseId: z.uuid({ message: "shareables.errors.releaseInvalid" }),
    ...expiryFields,
  })
  .superRefine(checkExpiryDate);

export type CreateReleaseShareInput = z.infer<typeof createReleaseShareSchema>;

export const revokeShareSchema = z.object({ intent: z.literal("revoke"), id: z.uuid() });

/** When a link made now with these choices stops working: days from now, or the end of the chosen day (UTC). */
export function shareExpiry(input: Pick<CreateShareInput, "expiry" | "expiresOn">, now = new Date()): Date {
  if (input.expiry === "date" && input.expiresOn) return new Date(`${input.expiresOn}T23:59:59.999Z`);
  return new Date(now.getTime() + Number(input.expiry === "date" ? DEFAULT_SHARE_EXPIRY : input.expiry) * DAY_MS);
}

export type ShareState = "active" | "expired" | "revoked";

export function shareState(share: { expiresAt: Date | string; revokedAt: Date | string | null }, now = new Date()): ShareState {
  if (share.revokedAt) return "revoked";
  return new Date(share.expiresAt) <= now ? "expired" : "active";
}

/** The link's paths: the page, and its media (each checked against the shared version). */
export const sharePaths = (token: string) => ({
  page: `/shareables/${token}`,
  media: (contentId: string, download = false) => `/shareables/${token}/media/${contentId}${download ? "?download" : ""}`,
  poster: (contentId: string) => `/shareables/${token}/media/${contentId}/poster`,
});

/** How a shared media value shows: where its file is (through the link), its type and its poster for a video. */
export interface SharedMedia {
  kind: "image" | "video" | "file";
  url: string;
  download: string;
  poster: string | null;
  filename: string;
  mimetype: string;
  width: number | null;
  height: number | null;
  /** The library's texts of the item in the page's language (else its first), credits: what the page shows. */
  alt: string | null;
  caption: string | null;
  credits: string | null;
}

/** What /shareables/{token} shows: the document's values along the schema, its media and referenced titles. */
export interface SharedDocument {
  title: string;
  bucketName: string;
  /** The version's number in the document's history and when it was saved. */
  version: { number: number; createdAt: string };
  /** The link follows the latest version. */
  latest: boolean;
  expiresAt: string;
  rows: DocumentRow[];
  media: Record<string, SharedMedia>;
  /** Referenced documents' titles; null where it was deleted or its bucket is not the link maker's to see. */
  references: Record<string, string | null>;
}

/**
 * What /shareables/{token} shows for a link to a release: its name and state, and each of its documents (in buckets
 * the link's maker may see) read-only as the release shows it, at its release version.
 */
export interface SharedRelease {
  kind: "release";
  name: string;
  state: "open" | "scheduled" | "published" | "rolled_back";
  /** When it is (or was) to go live. */
  scheduledAt: string | null;
  publishedAt: string | null;
  expiresAt: string;
  documents: Array<SharedDocument & { contentId: string }>;
}

/** What /shareables/{token} shows: one document, or a release. */
export type SharedPage = (SharedDocument & { kind: "document" }) | SharedRelease;

/** A row of /shareables. */
export interface ShareListItem {
  id: string;
  /** A link to one document, or to a release (title: its name; documentPath: its page). */
  kind: "document" | "release";
  title: string;
  bucketName: string;
  bucketSlug: string;
  documentPath: string;
  versionNumber: number | null;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  state: ShareState;
  createdByName: string;
  mine: boolean;
}

/** Every answer under /shareables/{token}: the token never leaves in a Referer, is not indexed, and is not kept. */
export const SHARE_HEADERS: Readonly<Record<string, string>> = {
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex, nofollow",
  "Cache-Control": "private, no-store",
};
