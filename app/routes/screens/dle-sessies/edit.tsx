import type { RouteHandle } from "@core/route-handle";
import { learningSessionData } from "~/components/session-editor/session-data.server";
import { bucketEditAction, bucketEditLoader, latestOrVersion } from "~/routes/bucket-edit/edit.server";
import { bucketEditMeta } from "~/routes/bucket-edit/page";
import { StoredDocumentPage } from "~/routes/bucket-edit/stored-page";
import { LEARNING_SESSION_EDITOR } from "~/components/session-editor/session-aside";
import type { Route } from "./+types/edit";

// /dle-sessies/{bucket}/{contentId}/{latest|versionId}: a session of a learning environment.

// The session editor plays clips in the media modal, whose messages are in the media part.
export const handle = { streamsBody: true, messages: ["media", "pages"] } satisfies RouteHandle;

export const loader = bucketEditLoader(latestOrVersion, "dle-sessies", learningSessionData);
export const action = bucketEditAction("dle-sessies");
export const meta = bucketEditMeta;

export default function Page({ loaderData, actionData }: Route.ComponentProps) {
  return <StoredDocumentPage loaderData={loaderData} actionData={actionData} screen={LEARNING_SESSION_EDITOR} />;
}
