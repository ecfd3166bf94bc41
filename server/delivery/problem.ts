import type { Locale } from "@core/locales";
import { translate, type MessageKey, type MessageParams } from "@core/messages";

/*
 * The delivery API's refusals are RFC 9457 problem details (`application/problem+json`): type (a URN naming the
 * kind of problem), title, status, detail, and for a bad query parameter the extension member `parameter`. Title
 * and detail are in the client's Accept-Language (en or nl), else the default locale (the answer:
 * server/web/delivery/problem-answer.ts).
 */

export type ProblemType = "unauthorized" | "not-found" | "invalid-parameter" | "rate-limited" | "forbidden" | "method-not-allowed";

const TITLES: Record<ProblemType, MessageKey> = {
  unauthorized: "delivery.problems.unauthorized.title",
  "not-found": "delivery.problems.notFound.title",
  "invalid-parameter": "delivery.problems.invalidParameter.title",
  "rate-limited": "delivery.problems.rateLimited.title",
  forbidden: "delivery.problems.forbidden.title",
  "method-not-allowed": "delivery.problems.methodNotAllowed.title",
};

export const PROBLEM_TYPE_PREFIX = "urn:vitrine:problem:";

export class Problem extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 429,
    readonly type: ProblemType,
    readonly detailKey: MessageKey,
    readonly params: MessageParams = {},
    readonly extra: { parameter?: string; headers?: Record<string, string> } = {},
  ) {
    super(detailKey);
    this.name = "Problem";
  }
}

/** A query parameter the API cannot use: 400 naming it. */
export const invalidParameter = (parameter: string, key: MessageKey, params: MessageParams = {}) =>
  new Problem(400, "invalid-parameter", key, params, { parameter });

export const unauthorized = () =>
  new Problem(
    401,
    "unauthorized",
    "delivery.problems.unauthorized.detail",
    {},
    { headers: { "WWW-Authenticate": 'Bearer realm="Vitrine delivery", error="invalid_token"' } },
  );

export const notFound = (key: MessageKey = "delivery.problems.notFound.bucket") => new Problem(404, "not-found", key);

/** The problem's JSON body (RFC 9457), in `locale`. */
export function problemBody(problem: Problem, locale: Locale) {
  return {
    type: `${PROBLEM_TYPE_PREFIX}${problem.type}`,
    title: translate(locale, TITLES[problem.type]),
    status: problem.status,
    detail: translate(locale, problem.detailKey, problem.params),
    ...(problem.extra.parameter ? { parameter: problem.extra.parameter } : {}),
  };
}
