import { z } from "zod";

/*
 * The web origins an API client allows (CORS of the delivery API), as an admin writes them in settings: one per
 * line (or separated by spaces or commas), each scheme://host[:port] of http or https, without a path.
 */

/** An origin as the browser sends it (`https://kiosk.example.org`), or null when the text is no such origin. */
export function parseOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  // A trailing slash is the only path allowed.
  if (url.username || url.password || url.search || url.hash || url.pathname !== "/" || /[?#]/.test(text)) return null;
  return url.origin;
}

export const MAX_ORIGINS = 50;

/** The origins of a textarea: one each line (or comma or space separated), empty lines left out. */
export const originsField = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const parts = (text ?? "").split(/[\s,]+/).filter(Boolean);
    const origins: string[] = [];
    for (const part of parts) {
      const origin = parseOrigin(part);
      if (!origin) {
        ctx.addIssue({ code: "custom", message: "delivery.clients.invalidOrigin" });
        return z.NEVER;
      }
      if (!origins.includes(origin)) origins.push(origin);
    }
    if (origins.length > MAX_ORIGINS) {
      ctx.addIssue({ code: "custom", message: "delivery.clients.tooManyOrigins" });
      return z.NEVER;
    }
    return origins;
  });

export const clientOriginsSchema = z.object({ intent: z.literal("origins"), clientId: z.uuid(), origins: originsField });
