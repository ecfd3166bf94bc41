import { lazy, memo, Suspense, type ComponentType } from "react";

/**
 * A component the server renders at once and the browser loads on demand, so its code (and what it imports) stays
 * out of the page's first load. The server gives `rendered` (the component itself, imported behind
 * `import.meta.env.SSR` so the client build leaves it out); the browser gets `load`. Both render inside a Suspense
 * boundary: while hydrating, React keeps the server's HTML as it is until the code arrives, then hydrates it; in a
 * client navigation nothing shows for the moment the code takes. It is memoised: a parent's re-render with the same
 * props (the page's own after hydration) must not count as an update of a boundary still waiting for its code,
 * which would make React drop the server's HTML (and what the user did with it) and render it afresh.
 *
 * Styles the component needs must be imported by a module of the first load: a route's stylesheet links (which
 * the page without JavaScript relies on) come from its static imports only.
 */
export function deferredComponent<Props extends object>(
  rendered: ComponentType<Props> | undefined,
  load: () => Promise<ComponentType<Props>>,
): ComponentType<Props> {
  const Component = rendered ?? lazy(async () => ({ default: await load() }));
  return memo(function Deferred(props: Props) {
    return (
      <Suspense fallback={null}>
        <Component {...props} />
      </Suspense>
    );
  });
}
