import { defineConfig } from "vitest/config";

/** `npm run screens` only (scripts/screens.mjs): the tour's screenshots, never part of `npm test`. */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    root: new URL("../..", import.meta.url).pathname,
    include: ["tests/screens/screens.run.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    env: { VITRINE_TEST_DB: "pglite" },
    testTimeout: 15 * 60_000,
    hookTimeout: 120_000,
  },
});
