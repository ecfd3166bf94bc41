import type { CataloguePart } from "./catalogue-parts";

/**
 * What a route module declares about itself in `export const handle`, read by
 * the server before the route runs (server/http.ts) and by the page.
 */
export interface RouteHandle {
  /** Catalogue parts the page needs besides `common` (core/catalogue-parts.ts); a child route has its parents'. */
  messages?: readonly CataloguePart[];
  /**
   * The route reads its own request body as a stream, under its own limits
   * (uploads, multipart edit forms): the server's 1 MiB body limit does not
   * apply to it.
   */
  streamsBody?: true;
  /**
   * The page stands alone (a shareable link, opened by anyone): the top bar shows the brand and the language
   * switch only: no bucket links, no user menu.
   */
  standalone?: true;
}
