import { createContext, useContext } from "react";
import type { ScreenRules } from "@core/content/screen-table";

/*
 * The specialised screens' rules in the browser: app/root.tsx, a composition root, provides the screens' table
 * (specialised-screens/table.ts); the edit page's resolver runs the rules of its bucket's screen marked `inBrowser`,
 * so no page of the engine imports a screen.
 */
export const ScreenTableContext = createContext<ScreenRules>([]);

export const useScreenTable = () => useContext(ScreenTableContext);
