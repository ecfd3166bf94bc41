import type { ReactNode } from "react";

/**
 * A row of buttons of which one is chosen: tabs (a tablist, the chosen one aria-selected: the locale tabs, the
 * thumbnail dialog's tabs) or toggle buttons (a group, the chosen one aria-pressed: the playback rates).
 */
export function ButtonRow<T extends string | number>(props: {
  kind: "tabs" | "toggles";
  className: string;
  label?: string;
  options: readonly T[];
  chosen: T;
  onChoose: (option: T) => void;
  text: (option: T) => ReactNode;
  buttonClass?: (option: T) => string;
}) {
  const tabs = props.kind === "tabs";
  return (
    <div className={props.className} role={tabs ? "tablist" : "group"} aria-label={props.label}>
      {props.options.map((option) => (
        <button
          key={option}
          type="button"
          role={tabs ? "tab" : undefined}
          className={props.buttonClass?.(option)}
          aria-selected={tabs ? option === props.chosen : undefined}
          aria-pressed={tabs ? undefined : option === props.chosen}
          onClick={() => props.onChoose(option)}
        >
          {props.text(option)}
        </button>
      ))}
    </div>
  );
}
