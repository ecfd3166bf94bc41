import type { ScreenModule } from "@core/content/screen-table";
import { screenFieldErrors } from "../shared/availability";
import { sessionRequirements } from "../shared/session-screen";

/** Dle-sessies: a learning environment's sessions, in a stored order, with availability (docs/screens.md). */
export const DLE_SESSIES: ScreenModule = {
  name: "dle-sessies",
  rules: [
    {
      owner: "dle-sessies: a session ends no earlier than it starts",
      inBrowser: true,
      check: ({ screen, data }) => {
        const [field, messages] = Object.entries(screenFieldErrors(screen, data))[0] ?? [];
        return field && messages?.[0] ? { field, message: messages[0], status: 400 } : null;
      },
    },
  ],
  requirements: sessionRequirements,
};
