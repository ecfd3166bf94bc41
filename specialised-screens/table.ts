import type { ScreenTable } from "@core/content/screen-table";
import { DLE_CONTENT } from "./dle-content/screen";
import { DLE_SESSIES } from "./dle-sessies/screen";
import { SESSIES } from "./sessies/screen";
import { TREND } from "./trend/screen";

/*
 * The specialised screens, one entry each (docs/decisions/006-screens-as-modules.md): its rules, what it asks of a
 * bucket definition and its routes. The composition roots (app/routes.ts, app/root.tsx, server/app.ts) hand this
 * table to the engine; nothing else imports it. A new screen is a folder beside these and one line here.
 */
export const SCREEN_TABLE: ScreenTable = [SESSIES, DLE_SESSIES, DLE_CONTENT, TREND];
