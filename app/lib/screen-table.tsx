import { createContext, useContext } from "react";
import type { ScreenRules } from "@core/content/screen-table";

/*
 * The specialised screens' rules in the browser: app/root.tsx, a composition root, provides
 * specialised-screens/browser-rules.ts (the rules of specialised-screens/table.ts, without what the screens ask of a
 * bucket definition); the edit page's resolver reads the rules of its bucket's screen from it, so no page of the
 * engine imports a screen.
 */
export const ScreenTableContext = createContext<ScreenRules>([]);

export const useScreenTable = () => useContext(ScreenTableContext);
