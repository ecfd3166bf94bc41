import type { ScreenRules } from "@core/content/screen-table";
import { DLE_SESSIES_RULES } from "./dle-sessies/rules";

/*
 * The screens' rules the browser's form check runs, as specialised-screens/table.ts has them but without what each
 * screen asks of a bucket definition: app/root.tsx provides this, so the shell every page loads carries no bucket
 * check (tests/unit/client-build.test.ts holds the edit page to its JavaScript budget). A screen with a rule marked
 * `inBrowser` adds a line here too; tests/unit/screen-table.test.ts checks both tables agree.
 */
export const SCREEN_BROWSER_RULES: ScreenRules = [{ name: "dle-sessies", rules: DLE_SESSIES_RULES.filter((rule) => rule.inBrowser) }];
