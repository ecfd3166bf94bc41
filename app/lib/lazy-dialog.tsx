import { lazy, Suspense, type ComponentType } from "react";
import { useTranslation } from "react-i18next";

/**
 * A dialog that only opens on a click, its code fetched when it first opens, not with the page. While the code is
 * on its way (a slow connection) a 'Loading' notice shows in its place; after that it opens at once.
 */
export function lazyDialog<Props extends object>(load: () => Promise<ComponentType<Props>>): ComponentType<Props> {
  const Dialog = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: Props) {
    return (
      <Suspense fallback={<DialogLoading />}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}

/**
 * The server's stand-in for a dialog's import (`import.meta.env.SSR ? opensInBrowserOnly : () => import(…)`): a
 * dialog never opens there, and without the import the server build keeps no chunk for it (chunks of dynamic
 * imports made the server's entry a facade of a chunk, whose paths relative to itself no longer held).
 */
export const opensInBrowserOnly = (): Promise<never> => Promise.reject(new Error("A dialog opens in the browser only."));

function DialogLoading() {
  const { t } = useTranslation();
  return (
    <p className="dialog-loading" role="status">
      {t("loading")}…
    </p>
  );
}
