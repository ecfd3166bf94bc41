import { problemBody, type Problem } from "@server/delivery/problem";
import { normalizeLocale, type Locale } from "@core/locales";

/** The language of the answer: the first of Accept-Language's tags we speak, else the default locale. */
export function problemLocale(request: Request, fallback: Locale): Locale {
  const header = request.headers.get("accept-language");
  if (!header) return fallback;
  const tags = header
    .split(",")
    .map((part) => {
      const [tag = "", ...rest] = part.trim().split(";");
      const q = Number(/q=([\d.]+)/.exec(rest.join(";"))?.[1] ?? 1);
      return { tag, q: Number.isFinite(q) ? q : 0 };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    const locale = normalizeLocale(tag);
    if (locale) return locale;
  }
  return fallback;
}

/** A delivery refusal as application/problem+json (server/delivery/problem.ts), never cached. */
export function problemResponse(problem: Problem, locale: Locale, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problemBody(problem, locale)), {
    status: problem.status,
    headers: {
      "Content-Type": "application/problem+json",
      "Content-Language": locale,
      "Cache-Control": "no-store",
      ...headers,
      ...problem.extra.headers,
    },
  });
}
