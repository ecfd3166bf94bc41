import { createContext, useContext } from "react";
import type { ScreenTable } from "@core/content/screen-table";

/*
 * The specialised screens' table in the browser: app/root.tsx, a composition root, provides specialised-screens/table.ts; the
 * edit page's resolver reads the rules of its bucket's screen from it, so no page of the engine imports a screen.
 */
export const ScreenTableContext = createContext<ScreenTable>([]);

export const useScreenTable = () => useContext(ScreenTableContext);
