import en from "@locales/en/releases.json";
import nl from "@locales/nl/releases.json";
import { addMessages } from "@core/catalogues";

/*
 * The catalogue's `releases` part (core/catalogue-parts.ts), in both languages, inside the code that shows it: the
 * releases' pages and the edit page's "Add to release" and "In release". Imported for this effect by each module that
 * names its messages.
 */
addMessages({ en, nl });
