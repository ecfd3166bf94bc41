import type { AppLoadContext } from "react-router";
import type { User } from "@server/accounts/users";
import { requireUser } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { ContentNotFoundError } from "@server/content/store";
import { VersionNotFoundError } from "@server/content/publishing";
import {
  ReleaseNameError,
  ReleaseNotEditableError,
  ReleaseNotFoundError,
  ReleaseNotPublishedError,
  ReleaseScheduleError,
} from "@server/content/releases";
import { mayPublish } from "@core/content/publication";
import { RELEASE_NAME_MAX } from "@core/content/release";
import type { MessageKey } from "@core/messages";

/** The releases' pages and actions are for users who may publish (docs/publishing.md); anyone else gets 403. */
export async function requireReleases(request: Request, context: AppLoadContext): Promise<User> {
  const user = await requireUser(request, context);
  if (!mayPublish(user.permissions)) throw new HttpError(403, "errors.publishForbidden");
  return user;
}

export { exhibitTimeZone } from "@server/content/release-editing";

/** A refused release action, as the page shows it: the message, its parameters and the status. */
export interface ReleaseRefusal {
  status: 400 | 404 | 409;
  message: MessageKey;
  params?: Record<string, string | number>;
}

/** The refusal a release error means, or null (not one of ours: it propagates). 404s throw. */
export function releaseRefusal(error: unknown): ReleaseRefusal | null {
  if (error instanceof ReleaseNotFoundError || error instanceof ContentNotFoundError || error instanceof VersionNotFoundError)
    throw new HttpError(404, "errors.notFound");
  if (error instanceof ReleaseNameError)
    return error.reason === "empty"
      ? { status: 400, message: "releases.errors.nameEmpty" }
      : { status: 400, message: "releases.errors.nameTooLong", params: { max: RELEASE_NAME_MAX } };
  if (error instanceof ReleaseScheduleError)
    return { status: 400, message: error.reason === "past" ? "releases.errors.timePast" : "releases.errors.timeInvalid" };
  if (error instanceof ReleaseNotEditableError) return { status: 409, message: "releases.errors.notEditable" };
  if (error instanceof ReleaseNotPublishedError) return { status: 409, message: "releases.errors.notPublished" };
  return null;
}

/** Runs a release action: null when done, the refusal when it is one we know (the page shows it); anything else propagates. */
export async function refusalOf(run: () => Promise<unknown>): Promise<ReleaseRefusal | null> {
  try {
    await run();
    return null;
  } catch (error) {
    const refusal = releaseRefusal(error);
    if (refusal) return refusal;
    throw error;
  }
}
