/*
 * Spec §9: how a schema writes a media bound's width or height. Its own module because the schema checks
 * (core/schema/dialect.ts) read bounds too, without the upload checks' messages.
 */

/** Spec §9 named resolutions, width × height. */
export const NAMED_RESOLUTIONS = {
  HD: { width: 1920, height: 1080 },
  "4K": { width: 3840, height: 2160 },
  "720p": { width: 1280, height: 720 },
  SD: { width: 1280, height: 480 },
  VGA: { width: 640, height: 480 },
  NTSC: { width: 720, height: 480 },
  PAL: { width: 720, height: 480 },
} satisfies Record<string, { width: number; height: number }>;

/** The named resolutions by whatever name a schema writes. */
const RESOLUTION_BY_NAME: Readonly<Record<string, { width: number; height: number }>> = NAMED_RESOLUTIONS;

/**
 * A bound as written in a schema: a number of pixels, a named resolution
 * (HD, 4K, 720p, …) or WxH; the width or height of it is taken by axis.
 */
export function parseDimension(value: unknown, axis: "width" | "height"): number | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return Math.round(value);
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  const named = RESOLUTION_BY_NAME[trimmed] ?? RESOLUTION_BY_NAME[trimmed.toUpperCase()];
  if (named) return named[axis];
  const pair = /^(\d+)\s*[x×]\s*(\d+)$/i.exec(trimmed);
  if (pair) return Number(axis === "width" ? pair[1] : pair[2]);
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  return undefined;
}
