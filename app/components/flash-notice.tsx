import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** How long a confirmation stays before it fades (while the pointer or focus is on it, it stays). */
export const FLASH_NOTICE_MS = 8000;
const FADE_MS = 400;

const subscribeToNothing = () => () => undefined;

/**
 * A short confirmation after an action ('Saved', 'Document deleted'): a status message, so screen readers announce
 * it. Without JavaScript it stays on the page; with it, it has a close button and fades after FLASH_NOTICE_MS.
 */
export function FlashNotice({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const hydrated = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  const [state, setState] = useState<"shown" | "fading" | "gone">("shown");
  const [held, setHeld] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (held || state !== "shown") return;
    timer.current = setTimeout(() => setState("fading"), FLASH_NOTICE_MS);
    return () => clearTimeout(timer.current);
  }, [held, state]);
  useEffect(() => {
    if (state !== "fading") return;
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const done = setTimeout(() => setState("gone"), reduced ? 0 : FADE_MS);
    return () => clearTimeout(done);
  }, [state]);

  if (state === "gone") return null;
  return (
    <p
      className={state === "fading" ? "notice-success flash-notice fading" : "notice-success flash-notice"}
      role="status"
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <span>{children}</span>
      {hydrated ? (
        // The × is drawn by CSS, so the notice's text is the message alone.
        <button type="button" className="flash-dismiss" aria-label={t("form.dismiss")} onClick={() => setState("gone")} />
      ) : null}
    </p>
  );
}

/** A notice that stays (a status message): green for what went well, yellow for what to mind. */
export function StatusNotice({ tone, children }: { tone: "success" | "warning"; children: ReactNode }) {
  return (
    <p className={`notice-${tone}`} role="status">
      {children}
    </p>
  );
}
