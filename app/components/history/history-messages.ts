import en from "@locales/en/history.json";
import nl from "@locales/nl/history.json";
import { addMessages } from "@core/catalogues";

/*
 * The catalogue's `history` part (core/catalogue-parts.ts), in both languages, inside the code that shows it: the
 * history panel and page, the compare view, and the shared links that name versions. In `common` a new document's
 * page, which has no history, would load it. Imported for this effect by each module that names its messages.
 */
addMessages({ en, nl });
