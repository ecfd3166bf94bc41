import type { DocumentRule } from "@core/content/document-rules";
import { screenFieldErrors } from "../shared/availability-dates";

/** Dle-sessies' rules for its documents: every save runs them, and the form's resolver as the editor types. */
export const DLE_SESSIES_RULES: readonly DocumentRule[] = [
  {
    owner: "dle-sessies: a session ends no earlier than it starts",
    inBrowser: true,
    check: ({ screen, data }) => {
      const [field, messages] = Object.entries(screenFieldErrors(screen, data))[0] ?? [];
      return field && messages?.[0] ? { field, message: messages[0], status: 400 } : null;
    },
  },
];
