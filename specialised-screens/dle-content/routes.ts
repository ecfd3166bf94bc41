import { route, type RouteConfigEntry } from "@react-router/dev/routes";

/** The dle-content screen's pages (app/routes.ts reads them; module paths are relative to app/). */
export default [
  route("dle-content/:bucket/new", "../specialised-screens/dle-content/new.tsx", { id: "dle-content-new" }),
  route("dle-content/:bucket/edit", "../specialised-screens/dle-content/edit.tsx", { id: "dle-content-edit" }),
  route("dle-content/:bucket/:contentId/:versionId", "../specialised-screens/dle-content/edit.tsx", { id: "dle-content-version" }),
] satisfies RouteConfigEntry[];
