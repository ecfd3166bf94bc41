import type { ScreenModule } from "@core/content/screen-table";

/** Dle-content: a learning environment's own texts, one environment per document or a singleton (docs/screens.md). */
export const DLE_CONTENT: ScreenModule = {
  name: "dle-content",
  pages: { modes: ["new", "singleton", "latest", "version"], ownOverview: false },
  rules: [],
  requirements: () => [],
};
