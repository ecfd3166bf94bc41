import { useActionData, useLoaderData } from "react-router";
import type { RouteHandle } from "@core/route-handle";
import { learningSessionData } from "./session-data.server";
import { bucketEditAction, bucketEditLoader } from "~/routes/bucket-edit/edit.server";
import { BucketEditPage, bucketEditMeta } from "~/routes/bucket-edit/page";
import { LEARNING_SESSION_EDITOR } from "../shared/components/session-aside";

// /dle-sessies/{bucket}/new: a new session of a learning environment.

// The session editor plays clips in the media modal, whose messages are in the media part.
export const handle = { streamsBody: true, messages: ["media", "pages"] } satisfies RouteHandle;

export const loader = bucketEditLoader("new", "dle-sessies", learningSessionData);
export const action = bucketEditAction("dle-sessies");
export const meta = bucketEditMeta;

export default function Page() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <BucketEditPage loaderData={loaderData} actionData={actionData} screen={LEARNING_SESSION_EDITOR} />;
}
