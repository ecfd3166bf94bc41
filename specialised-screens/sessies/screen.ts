import type { ScreenModule } from "@core/content/screen-table";
import { sessionRequirements } from "../shared/session-screen";

/** Sessies: sessions, each an ordered set of video cases (docs/screens.md). */
export const SESSIES: ScreenModule = {
  name: "sessies",
  pages: { modes: ["new", "latest", "version"], ownOverview: true },
  rules: [],
  requirements: sessionRequirements,
};
