import type { Config } from "@react-router/dev/config";

// The bench builds this app into a folder of its own (bench/sections/pages.mjs).
export default {
  ssr: true,
  buildDirectory: process.env.BASELINE_BUILD_DIR ?? "build",
} satisfies Config;
