import type { ScreenModule } from "@core/content/screen-table";

/**
 * Trend: a trend with its image, texts and related trends (docs/screens.md). That a trend is not related to itself is
 * the trend-select field kind's rule (core/content/document-rules.ts), on any screen.
 */
export const TREND: ScreenModule = {
  name: "trend",
  pages: { modes: ["new", "latest", "version"], ownOverview: false },
  rules: [],
  requirements: ({ singleton }) => (singleton ? [{ key: "screens.errors.notSingleton" }] : []),
};
