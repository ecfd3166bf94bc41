import { defineConfig } from "vitest/config";

const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

// Unit and integration files mostly wait on servers, child processes and the database, so two run at once; the
// browser files keep the machine's CPU busy and run one at a time, after them (a group of their own).
const fileGroups = { waiting: { groupOrder: 0, maxWorkers: 2 }, browser: { groupOrder: 1, maxWorkers: 1 } };

const integration = (database: "pglite" | "postgres") => ({
  extends: true as const,
  test: {
    name: `integration:${database}`,
    maxWorkers: fileGroups.waiting.maxWorkers,
    sequence: { groupOrder: fileGroups.waiting.groupOrder },
    include: ["tests/integration/**/*.test.ts"],
    env: { VITRINE_TEST_DB: database },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    globalSetup: ["tests/support/global-setup.ts"],
    reporters: ["default", "./tests/support/summary-reporter.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "core/**/*.test.ts", "server/**/*.test.ts", "tests/unit/**/*.test.ts"],
          maxWorkers: fileGroups.waiting.maxWorkers,
          sequence: { groupOrder: fileGroups.waiting.groupOrder },
        },
      },
      integration("pglite"),
      ...(withPostgres ? [integration("postgres")] : []),
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          maxWorkers: fileGroups.browser.maxWorkers,
          sequence: { groupOrder: fileGroups.browser.groupOrder },
          env: { VITRINE_TEST_DB: "pglite" },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
