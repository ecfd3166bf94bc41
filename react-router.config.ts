import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  routeDiscovery: { mode: "initial" },
  // A separate build folder lets parallel runs (developers' helpers, benchmarks) not clobber each other.
  buildDirectory: process.env.VITRINE_BUILD_DIR ?? "build",
  future: {
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
