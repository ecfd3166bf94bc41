import { useEffect, type RefObject } from "react";

/**
 * Holds back the typing in the inputs under `container` from the form (and so
 * from live revalidation) until the user has paused for `delayMs`. Each
 * input keeps its value in the DOM meanwhile, so a submit never loses a
 * keystroke; the held event is replayed as one synthetic `input` event.
 */
export function useDebouncedInput(container: RefObject<HTMLElement | null>, delayMs: number): void {
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const timers = new Map<EventTarget, ReturnType<typeof setTimeout>>();
    const hold = (event: Event) => {
      // The replayed event is not trusted: let it through to the form.
      if (!event.isTrusted || !(event.target instanceof HTMLInputElement)) return;
      event.stopPropagation();
      const input = event.target;
      clearTimeout(timers.get(input));
      timers.set(
        input,
        setTimeout(() => {
          timers.delete(input);
          input.dispatchEvent(new Event("input", { bubbles: true }));
        }, delayMs),
      );
    };
    element.addEventListener("input", hold);
    return () => {
      element.removeEventListener("input", hold);
      for (const timer of timers.values()) clearTimeout(timer);
    };
  }, [container, delayMs]);
}
