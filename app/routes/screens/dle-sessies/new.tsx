import type { RouteHandle } from "@core/route-handle";
import { learningSessionData } from "~/components/session-editor/session-data.server";
import { bucketEditAction, bucketEditLoader } from "~/routes/bucket-edit/edit.server";
import { BucketEditPage, bucketEditMeta } from "~/routes/bucket-edit/page";
import { LEARNING_SESSION_EDITOR } from "~/components/session-editor/session-aside";
import type { Route } from "./+types/new";

// /dle-sessies/{bucket}/new: a new session of a learning environment.

// The session editor plays clips in the media modal, whose messages are in the media part.
export const handle = { streamsBody: true, messages: ["media", "pages"] } satisfies RouteHandle;

export const loader = bucketEditLoader("new", "dle-sessies", learningSessionData);
export const action = bucketEditAction("dle-sessies");
export const meta = bucketEditMeta;

export default function Page({ loaderData, actionData }: Route.ComponentProps) {
  return <BucketEditPage loaderData={loaderData} actionData={actionData} screen={LEARNING_SESSION_EDITOR} />;
}
