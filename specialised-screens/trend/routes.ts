import { route, type RouteConfigEntry } from "@react-router/dev/routes";

/** The trend screen's pages (app/routes.ts reads them; module paths are relative to app/). */
export default [
  route("trend/:bucket/new", "../specialised-screens/trend/new.tsx", { id: "trend-new" }),
  route("trend/:bucket/:contentId/:versionId", "../specialised-screens/trend/edit.tsx", { id: "trend-edit" }),
] satisfies RouteConfigEntry[];
