import type { Config } from "@react-router/dev/config";

// The bench builds this app into a folder of its own (bench/baselines/page-baseline.mjs), with Vitrine's route
// discovery: the manifest is a file the page imports (react-router.config.ts).
export default {
  ssr: true,
  buildDirectory: process.env.BASELINE_BUILD_DIR ?? "build",
  routeDiscovery: { mode: "initial" },
} satisfies Config;
