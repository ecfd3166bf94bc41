// React Router's package exports name its development build alone, which keeps its developer warnings (a constant
// the minifier cannot see through). This plugin gives the browser build the production build, the same code with
// them switched off. Used by Vitrine's build and by the bench's bare React Router page, so both ship the same router.
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";

const PRODUCTION_BUILD = new Map([
  ["react-router", fileURLToPath(new URL("../node_modules/react-router/dist/production/index.mjs", import.meta.url))],
  ["react-router/dom", fileURLToPath(new URL("../node_modules/react-router/dist/production/dom-export.mjs", import.meta.url))],
]);

/** The server keeps the package's own build, so that it and @react-router/node share one copy. */
export const reactRouterProductionInBrowser: Plugin = {
  name: "vitrine-react-router-production",
  enforce: "pre",
  apply: "build",
  resolveId(source) {
    return this.environment.name === "client" ? (PRODUCTION_BUILD.get(source) ?? null) : null;
  },
};
