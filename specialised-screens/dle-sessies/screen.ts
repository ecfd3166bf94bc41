import type { ScreenModule } from "@core/content/screen-table";
import { DLE_SESSIES_RULES } from "./rules";
import { sessionRequirements } from "../shared/session-screen";

/** Dle-sessies: a learning environment's sessions, in a stored order, with availability (docs/screens.md). */
export const DLE_SESSIES: ScreenModule = {
  name: "dle-sessies",
  pages: { modes: ["new", "latest", "version"], ownOverview: true },
  rules: DLE_SESSIES_RULES,
  requirements: sessionRequirements,
};
