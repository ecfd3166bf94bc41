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

function DialogLoading() {
  const { t } = useTranslation();
  return (
    <p className="dialog-loading" role="status">
      {t("loading")}…
    </p>
  );
}
