import en from "@locales/en/publishing.json";
import nl from "@locales/nl/publishing.json";
import { addMessages } from "@core/catalogues";

/*
 * The catalogue's `publishing` part (core/catalogue-parts.ts), in both languages, inside the code that shows it: the
 * Publish and Unpublish actions and dialog, the confirmation page, the history's publish links. In
 * `common` a new document's page, which shows none of it, would load it. Imported for this effect by each module
 * that names its messages. The state names are in `common` (publicationState, publicationStateHint): a new
 * document's reference fields show them.
 */
addMessages({ en, nl });
