import { useEffect, type RefObject } from "react";
import { useNavigate } from "react-router";

/**
 * Client-side navigation for the plain links of a long list (an overview's rows). A <Link> per row resolves its
 * path against the route matches and builds its click handler on every render: on the server that was a twentieth
 * of an overview page's CPU time. One listener on the list does what their clicks did: React Router navigates
 * (no document reload, the loading bar, scroll kept for `data-prevent-scroll-reset`, a view transition for
 * `data-view-transition`), while a modified click, a
 * middle click or another target opens the link as the browser would. Without JavaScript they are links as before.
 */
export function useClientLinks(container: RefObject<HTMLElement | null>): void {
  const navigate = useNavigate();
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(anchor instanceof HTMLAnchorElement) || !element.contains(anchor)) return;
      if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download") || anchor.origin !== window.location.origin)
        return;
      event.preventDefault();
      void navigate(anchor.pathname + anchor.search + anchor.hash, {
        preventScrollReset: anchor.hasAttribute("data-prevent-scroll-reset"),
        viewTransition: anchor.hasAttribute("data-view-transition"),
      });
    };
    element.addEventListener("click", onClick);
    return () => element.removeEventListener("click", onClick);
  }, [container, navigate]);
}
