import { defineConfig } from "vitest/config";
import { LongFilesFirst } from "./tests/support/sequencer.ts";

const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

// Two files at a time in each group: unit and integration files first, then the browser files (docs/testing.md,
// "How the suite runs", has the measurements).
const fileGroups = { waiting: { groupOrder: 0, maxWorkers: 2 }, browser: { groupOrder: 1, maxWorkers: 2 } };

/**
 * Files whose subject is not the database (page shells and titles, HTTP rules, route guards, the client state, the
 * OpenAPI document, the logs, what media processing does to a file, the media store): they send the same statements as the files that
 * run on both databases, so they run on PGlite alone.
 */
const ENGINE_AGNOSTIC = [
  "page-titles",
  "help",
  "http-security",
  "layout",
  "style-guide",
  "message-language",
  "route-body-limit",
  "log-secrets",
  "ffmpeg-discovery",
  "media-no-ffmpeg",
  "media-serving",
  "media",
  "media-limits",
  "media-edit",
  "guards",
  "client-state",
  "delivery-openapi",
  "unreadable-forms",
  "graceful-stop",
  "object-store",
  "media-s3",
].map((name) => `tests/integration/${name}.test.ts`);

const integration = (database: "pglite" | "postgres") => ({
  extends: true as const,
  test: {
    name: `integration:${database}`,
    maxWorkers: fileGroups.waiting.maxWorkers,
    sequence: { groupOrder: fileGroups.waiting.groupOrder },
    include: ["tests/integration/**/*.test.ts"],
    exclude: database === "postgres" ? ENGINE_AGNOSTIC : [],
    env: { VITRINE_TEST_DB: database },
    // One process runs file after file (not a new one per file): each file's own server and database are still its
    // own, but the built server is imported and warmed once per process, not once per file (docs/testing.md).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    globalSetup: ["tests/support/global-setup.ts"],
    reporters: ["default", "./tests/support/summary-reporter.ts"],
    sequence: { sequencer: LongFilesFirst },
    // Vitest's default of 1 s is shorter than a save plus a revalidation takes on a busy CI machine; a poll that
    // holds returns at once, so the deadline only decides how long a real failure takes to report.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          isolate: false,
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
