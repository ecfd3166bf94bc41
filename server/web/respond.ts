import { data, type AppLoadContext } from "react-router";
import { ContentNotFoundError, VersionConflictError } from "@server/content/store";
import { errorText, HttpError } from "@server/errors";
import { getRequestState } from "./request-state";

/*
 * Where refusals become answers, in one place: an HttpError, or a domain error
 * of the services, becomes JSON for the API ({error} in the reader's language)
 * or the error page for a page route.
 */

/** The HttpError a thrown value stands for, or null for an unexpected error (a 500, logged). */
export function asHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error instanceof VersionConflictError) {
    return new HttpError(
      409,
      "api.versionConflict",
      {},
      { code: "DOCUMENT_VERSION_CONFLICT", body: { latestVersionId: error.latestVersionId } },
    );
  }
  if (error instanceof ContentNotFoundError) return new HttpError(404, "api.noSuchDocument");
  return null;
}

/** An HttpError as the JSON answer of an API call, in the request's language. */
export async function errorJson(error: HttpError, request: Request, context: AppLoadContext): Promise<Response> {
  const { locale } = await getRequestState(request, context);
  const message = errorText(error, locale);
  const { code, body, headers } = error.options;
  const payload = code ? { error: code, message, ...body } : { error: message, ...body };
  return Response.json(payload, { status: error.status, headers });
}

interface RouteArgs {
  request: Request;
  context: AppLoadContext;
}

/** A resource route's loader or action: refusals answer JSON; redirects and other Responses pass. */
export function apiRoute<Args extends RouteArgs>(handler: (args: Args) => Response | Promise<Response>) {
  return async (args: Args): Promise<Response> => {
    try {
      return await handler(args);
    } catch (error) {
      const refusal = asHttpError(error);
      if (refusal) return errorJson(refusal, args.request, args.context);
      throw error;
    }
  };
}

/** A page route's loader or action: a refusal shows the error page with its status and message. */
export function pageRoute<Args extends RouteArgs, Result>(handler: (args: Args) => Result | Promise<Result>) {
  return async (args: Args): Promise<Result> => {
    try {
      return await handler(args);
    } catch (error) {
      const refusal = asHttpError(error);
      if (refusal) throw data({ key: refusal.key, params: refusal.params }, { status: refusal.status, headers: refusal.options.headers });
      throw error;
    }
  };
}

/** A method the route does not answer: 405 with Allow. */
export const methodNotAllowed = (allow: string, usage: string) =>
  new HttpError(405, "api.methodNotAllowed", { usage }, { headers: { Allow: allow } });
