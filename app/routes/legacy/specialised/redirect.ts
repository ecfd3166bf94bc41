import { redirect, type LoaderFunctionArgs } from "react-router";
import { currentEditPath } from "~/lib/legacy-routes";

/** The specialised screens whose legacy optional-parameter URLs still arrive (spec §2). */
export type SpecialisedScreen = "dle-content" | "dle-sessies" | "sessies" | "trend";

/** /dle-content-form/x → /dle-content/x/new, and so on for each specialised screen. */
export function redirectLegacyForm({ params }: LoaderFunctionArgs, screen: SpecialisedScreen) {
  return redirect(currentEditPath(screen, params.bucket, params.contentId, params.versionId), 301);
}

/** /sessies-index/x → /sessies/x */
export function redirectLegacyIndex({ params }: LoaderFunctionArgs, screen: SpecialisedScreen) {
  return redirect(params.bucket ? `/${screen}/${encodeURIComponent(params.bucket)}` : "/", 301);
}
