import type { KeyboardEvent, RefObject } from "react";
import type { TrendOption } from "@core/content/cases";
import { PublicationBadge } from "~/components/publishing/publication-badge";

/*
 * The listbox both trend selects open (the single select and the related-trends list's 'Add'): each option its
 * image and title; arrow keys, Home and End move, a letter jumps to the next title starting with it, Enter or space
 * chooses, Escape closes (focus back on the button), Tab closes and moves on.
 */

export type ListboxKey = { kind: "move"; to: number } | { kind: "choose" } | { kind: "escape" } | { kind: "tab" } | null;

/** What a key does in an open listbox of these labels with `active` highlighted. */
export function listboxKey(key: string, active: number, labels: readonly string[]): ListboxKey {
  const last = labels.length - 1;
  const moves: Record<string, number> = { ArrowDown: Math.min(last, active + 1), ArrowUp: Math.max(0, active - 1), Home: 0, End: last };
  const move = moves[key];
  if (move !== undefined) return { kind: "move", to: move };
  if (key === "Enter" || key === " ") return { kind: "choose" };
  if (key === "Escape") return { kind: "escape" };
  if (key === "Tab") return { kind: "tab" };
  if (key.length !== 1) return null;
  const letter = key.toLowerCase();
  const starts = (label: string) => label !== "" && label.toLowerCase().startsWith(letter);
  const found = labels.findIndex((label, index) => index > active && starts(label));
  const wrapped = found >= 0 ? found : labels.findIndex(starts);
  return wrapped >= 0 ? { kind: "move", to: wrapped } : null;
}

export function TrendOptionView(props: { option: TrendOption | null; empty: string }) {
  const { option } = props;
  return (
    <span className="trend-option">
      {option?.image ? (
        <img src={option.image} alt="" width={48} height={32} />
      ) : (
        <span className="trend-option-no-image" aria-hidden="true" />
      )}
      <span className="trend-option-label">{option ? option.label : props.empty}</span>
      {option?.state ? <PublicationBadge state={option.state} /> : null}
    </span>
  );
}

interface TrendOptionListProps {
  id: string;
  ref: RefObject<HTMLUListElement | null>;
  /** The options in order; null is the empty choice ('Pick an option'). */
  options: ReadonlyArray<TrendOption | null>;
  active: number;
  isSelected: (option: TrendOption | null, index: number) => boolean;
  /** What names the list: the field's label element, or a text. */
  labelledBy?: string;
  label?: string;
  /** The empty choice's text. */
  empty: string;
  onKeyDown: (event: KeyboardEvent) => void;
  onChoose: (option: TrendOption | null) => void;
  /** Focus left the list and its button. */
  onLeave: () => void;
}

/** The open listbox: focusable, its active option named by aria-activedescendant. */
export function TrendOptionList({
  id,
  ref,
  options,
  active,
  isSelected,
  labelledBy,
  label,
  empty,
  onKeyDown,
  onChoose,
  onLeave,
}: TrendOptionListProps) {
  return (
    <ul
      ref={ref}
      id={id}
      role="listbox"
      tabIndex={-1}
      className="trend-select-list"
      aria-labelledby={labelledBy}
      aria-label={label}
      aria-activedescendant={`${id}-${active}`}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (!event.currentTarget.parentElement?.contains(event.relatedTarget)) onLeave();
      }}
    >
      {options.map((option, index) => (
        <li
          key={option?.value ?? ""}
          id={`${id}-${index}`}
          role="option"
          aria-selected={isSelected(option, index)}
          className={index === active ? "active" : undefined}
          onMouseDown={(event) => event.preventDefault()}
          onPointerUp={() => onChoose(option)}
        >
          <TrendOptionView option={option} empty={empty} />
        </li>
      ))}
    </ul>
  );
}
