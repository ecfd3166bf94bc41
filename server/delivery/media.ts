import { createHmac, timingSafeEqual } from "node:crypto";
import type { Queryable } from "@server/db/client";
import type { MediaRow } from "@server/media/store";
import type { DeliveryMedia } from "@core/delivery/shape";
import { isUuid } from "@core/ids";

/*
 * Media of the delivery API: signed, expiring URLs, so that an exhibit app can put them in <img src> and <video
 * src> (which send no Authorization header) and a bundle or a cache can keep them. A URL is
 *   /api/v1/delivery/media/{contentId}/{file}?expires={unix seconds}&signature={base64url HMAC-SHA256}
 * with file `original`, `web` (a video's mp4 rendition), `still-{index}` or `still-custom`; the HMAC is over the
 * path and the expiry, with a key derived from the server's secret (SESSION_SECRET). The expiry is rounded up to
 * a whole window of DELIVERY_MEDIA_URL_TTL_SECONDS (valid for one to two windows), so the same document answers
 * the same URLs, and the same ETag, for a whole window.
 */

export const MEDIA_PATH_PREFIX = "/api/v1/delivery/media/";
const FILE = /^(original|web|still-(?:\d{1,4}|custom))$/;

interface SigningConfig {
  SESSION_SECRET: string;
  /** Every secret accepted (SESSION_SECRETS, the signing one first): URLs signed before a rotation stay valid. */
  acceptedSessionSecrets?: readonly string[];
  DELIVERY_MEDIA_URL_TTL_SECONDS: number;
}

const keys = new WeakMap<object, { signing: Buffer; accepted: Buffer[] }>();
function keysOf(config: SigningConfig): { signing: Buffer; accepted: Buffer[] } {
  let derived = keys.get(config);
  if (!derived) {
    const keyOf = (secret: string) => createHmac("sha256", secret).update("vitrine delivery media urls").digest();
    const signing = keyOf(config.SESSION_SECRET);
    const others = (config.acceptedSessionSecrets ?? []).filter((secret) => secret !== config.SESSION_SECRET);
    derived = { signing, accepted: [signing, ...others.map(keyOf)] };
    keys.set(config, derived);
  }
  return derived;
}

const signatureUnder = (key: Buffer, path: string, expires: number) =>
  createHmac("sha256", key).update(`${path}\n${expires}`).digest("base64url");
const signatureOf = (config: SigningConfig, path: string, expires: number) => signatureUnder(keysOf(config).signing, path, expires);

/** The expiry of URLs signed now: the end of the window after the current one (unix seconds). */
export function urlExpiry(config: SigningConfig, nowMs = Date.now()): number {
  const window = config.DELIVERY_MEDIA_URL_TTL_SECONDS;
  return (Math.floor(nowMs / 1000 / window) + 2) * window;
}

/** A signed URL of one file of a media content (`base`: the origin URLs are answered with). */
export function signedMediaUrl(config: SigningConfig, base: string, contentId: string, file: string, expires: number): string {
  const path = `${MEDIA_PATH_PREFIX}${contentId}/${file}`;
  return `${base}${path}?expires=${expires}&signature=${signatureOf(config, path, expires)}`;
}

/** Whether a media request's signature is the server's and not expired. */
export function verifyMediaUrl(config: SigningConfig, url: URL, nowMs = Date.now()): boolean {
  const expiresText = url.searchParams.get("expires") ?? "";
  const signature = url.searchParams.get("signature") ?? "";
  if (!/^\d{1,12}$/.test(expiresText) || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return false;
  const expires = Number(expiresText);
  if (expires * 1000 <= nowMs) return false;
  const given = Buffer.from(signature);
  return keysOf(config).accepted.some((key) => {
    const expected = Buffer.from(signatureUnder(key, url.pathname, expires));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** The contentId and file a media path names, or null. */
export function parseMediaPath(contentId: string | undefined, file: string | undefined): { contentId: string; file: string } | null {
  if (!isUuid(contentId) || !file || !FILE.test(file)) return null;
  return { contentId: contentId.toLowerCase(), file };
}

/** The storage key and type of one file of a media version, or null when it has no such file. */
export function mediaFile(media: MediaRow, file: string): { key: string; mimetype: string; filename: string } | null {
  const base = media.originalFilename.replace(/\.[^.]*$/, "");
  if (file === "original") return { key: media.storageKey, mimetype: media.mimetype, filename: media.originalFilename };
  if (file === "web")
    return media.details.renditionKey ? { key: media.details.renditionKey, mimetype: "video/mp4", filename: `${base}.mp4` } : null;
  const still = file.slice("still-".length);
  const key = still === "custom" ? media.details.customStillKey : media.details.stillKeys?.[Number(still)];
  if (!key) return null;
  const ext = key.slice(key.lastIndexOf("."));
  const mimetype = ext === ".png" ? "image/png" : ext === ".webp" ? "image/webp" : "image/jpeg";
  return { key, mimetype, filename: `${base}-${file}${ext}` };
}

/** The delivery media object of a media version. */
export function toDeliveryMedia(media: MediaRow & Partial<MediaTexts>, urlOf: (file: string) => string): DeliveryMedia {
  const original = { url: urlOf("original"), mimetype: media.mimetype };
  const renditions: DeliveryMedia["renditions"] = { original };
  if (media.details.renditionKey) renditions.web = { url: urlOf("web"), mimetype: "video/mp4" };
  const stills: DeliveryMedia["stills"] = (media.details.stillKeys ?? []).map((_, index) => ({
    index,
    custom: false,
    url: urlOf(`still-${index}`),
  }));
  if (media.details.customStillKey) stills.push({ index: null, custom: true, url: urlOf("still-custom") });
  const chosen = media.details.thumb;
  const thumbStill = chosen
    ? "isCustom" in chosen
      ? stills.find((still) => still.custom)
      : stills.find((still) => still.index === chosen.index)
    : undefined;
  return {
    contentId: media.contentId,
    kind: media.kind,
    mimetype: media.mimetype,
    filename: media.originalFilename,
    size: media.size,
    width: media.width,
    height: media.height,
    ...(media.kind === "video" ? { duration: media.details.duration ?? null } : {}),
    url: renditions.web?.url ?? original.url,
    renditions,
    stills,
    thumb: thumbStill ? { url: thumbStill.url, index: thumbStill.index, custom: thumbStill.custom } : null,
    alt: media.descriptions?.alt ?? {},
    caption: media.descriptions?.caption ?? {},
    credits: media.credits || null,
  };
}

/** The media library's texts of an item (migration 041): alternative texts and captions per locale, credits. */
export interface MediaTexts {
  descriptions: { alt?: Record<string, string>; caption?: Record<string, string> };
  credits: string;
}

const MEDIA_COLUMNS = `m.id, m.content_id AS "contentId", m.kind, m.bucket_id AS "bucketId", m.storage_key AS "storageKey",
  m.original_filename AS "originalFilename", m.mimetype, m.size::float8 AS size, m.width, m.height, m.details,
  m.original_image_version_id AS "originalImageVersionId", m.created_at AS "createdAt"`;

/** The latest version of each media content, with the slug of its bucket and its texts (a use item's over its shared item's). */
export async function latestMediaWithBucket(
  db: Queryable,
  contentIds: readonly string[],
): Promise<Array<MediaRow & MediaTexts & { bucketSlug: string }>> {
  if (!contentIds.length) return [];
  const { rows } = await db.query<MediaRow & MediaTexts & { bucketSlug: string }>(
    `SELECT ${MEDIA_COLUMNS}, b.slug AS "bucketSlug", t.descriptions, t.credits
     FROM media_items i JOIN media_item_texts t ON t.content_id = i.content_id
     JOIN media m ON m.id = i.latest_media_id JOIN buckets b ON b.id = i.bucket_id
     WHERE i.content_id = ANY($1::uuid[])`,
    [contentIds],
  );
  return rows;
}
