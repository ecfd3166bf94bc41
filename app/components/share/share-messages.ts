import en from "@locales/en/share.json";
import nl from "@locales/nl/share.json";
import { addMessages } from "@core/catalogues";

/*
 * The catalogue's `share` part (core/catalogue-parts.ts), in both languages, inside the code that shows it: the share
 * panel of a stored document's page, the shared link's page, the copy field. A part of its own to fetch would cost the
 * stored document's page a request; in `common` a new document's page would load it for nothing. Imported for this
 * effect by each module that names its messages.
 */
addMessages({ en, nl });
