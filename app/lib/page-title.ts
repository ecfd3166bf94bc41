import { isRouteErrorResponse, type MetaDescriptor } from "react-router";
import { normalizeLocale, type Locale } from "@core/locales";
import { translate } from "@core/messages";

/** A route's `matches` in its meta function: the root's data carries the product's name and the interface language. */
type MetaMatches = ReadonlyArray<{ data?: unknown; loaderData?: unknown } | undefined>;

interface RootMetaData {
  locale?: string;
  config?: { productName?: string };
}

const rootData = (matches: MetaMatches) => (matches[0]?.loaderData ?? matches[0]?.data) as RootMetaData | undefined;

/** The product's name (PRODUCT_NAME), the last part of every page's title. */
export const productName = (matches: MetaMatches) => rootData(matches)?.config?.productName ?? "Vitrine";

/** The interface language of the page, for titles put into words in meta functions (only `common` messages are sure to be in the browser). */
export const metaLocale = (matches: MetaMatches): Locale => normalizeLocale(rootData(matches)?.locale) ?? "en";

/** What an error page is called: a missing page says so, any other refusal or failure names its status. */
export function errorTitle(error: unknown, locale: Locale): string {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return status === 404 ? translate(locale, "errors.notFoundTitle") : translate(locale, "errors.title", { status });
}

/**
 * Every page's <title>: `{page} · {product}` ("Buckets · Vitrine"), the page's part in the interface language. With
 * an error, the error page's title; with neither, the product's name alone (spec §1's page head default).
 */
export function pageTitle(matches: MetaMatches, title: string | null | undefined, error?: unknown): MetaDescriptor[] {
  const page = error ? errorTitle(error, metaLocale(matches)) : title;
  const product = productName(matches);
  return [{ title: page ? `${page} · ${product}` : product }];
}
