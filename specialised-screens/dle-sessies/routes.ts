import { route, type RouteConfigEntry } from "@react-router/dev/routes";

/** The dle-sessies screen's pages (app/routes.ts reads them; module paths are relative to app/). */
export default [
  route("dle-sessies/:bucket", "../specialised-screens/dle-sessies/overview.tsx", { id: "dle-sessies-overview" }),
  route("dle-sessies/:bucket/new", "../specialised-screens/dle-sessies/new.tsx", { id: "dle-sessies-new" }),
  route("dle-sessies/:bucket/:contentId/:versionId", "../specialised-screens/dle-sessies/edit.tsx", { id: "dle-sessies-edit" }),
] satisfies RouteConfigEntry[];
