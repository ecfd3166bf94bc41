import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The browser loads the whole manifest at once; app/entry.server.tsx renders with the matched routes alone.
  routeDiscovery: { mode: "initial" },
  // A separate build folder lets parallel runs (developers' helpers, benchmarks) not clobber each other.
  buildDirectory: process.env.VITRINE_BUILD_DIR ?? "build",
  future: {
    v8_trailingSlashAwareDataRequests: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    // Loaders, actions and server/web read their dependencies from the AppLoadContext that server/http.ts builds;
    // middleware would hand them a RouterContextProvider instead: a migration of its own.
    v8_middleware: false,
    // Loaders and guards (server/web/guards.ts, the legacy redirects, bucket-edit) read the path from request.url;
    // raw requests would give them the ".data" path of client navigations. Adopting it means reading the `url`
    // argument instead.
    v8_passThroughRequests: false,
  },
} satisfies Config;
