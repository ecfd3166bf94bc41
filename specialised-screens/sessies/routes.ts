import { route, type RouteConfigEntry } from "@react-router/dev/routes";

/** The sessies screen's pages (app/routes.ts reads them; module paths are relative to app/). */
export default [
  route("sessies/:bucket", "../specialised-screens/sessies/overview.tsx", { id: "sessies-overview" }),
  route("sessies/:bucket/new", "../specialised-screens/sessies/new.tsx", { id: "sessies-new" }),
  route("sessies/:bucket/:contentId/:versionId", "../specialised-screens/sessies/edit.tsx", { id: "sessies-edit" }),
] satisfies RouteConfigEntry[];
