import { useActionData, useLoaderData } from "react-router";
import type { RouteHandle } from "@core/route-handle";
import { bucketEditAction } from "~/routes/bucket-edit/edit.server";
import { bucketEditMeta } from "~/routes/bucket-edit/page";
import { StoredDocumentPage } from "~/routes/bucket-edit/stored-page";
import { dleContentLoader, singletonOrVersion } from "./dle-content.server";
import { DLE_CONTENT_SCREEN } from "./components/parts";

// /dle-content/{bucket}/edit: the learning environment's content, a singleton (created on its first save), and
// /dle-content/{bucket}/{contentId}/{latest|versionId}: one version of a learning environment's content.
// One module for both routes (routes.ts gives each its id); the loader reads the mode from the URL.

export const handle = { streamsBody: true, messages: ["pages"] } satisfies RouteHandle;

export const loader = dleContentLoader(singletonOrVersion);
export const action = bucketEditAction("dle-content");
export const meta = bucketEditMeta;

export default function Page() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <StoredDocumentPage loaderData={loaderData} actionData={actionData} screen={DLE_CONTENT_SCREEN} />;
}
