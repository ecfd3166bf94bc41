import { useId, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import type { ReferenceOption } from "@core/content/references";
import { useCollectionSearch } from "./collection-search";
import { PublicationBadge } from "~/components/publishing/publication-badge";

/**
 * The search of a large collection as the editor types (WAI-ARIA combobox with a listbox popup): the input says
 * which option is active (aria-activedescendant), up and down move, Enter picks, Escape closes (and, when closed,
 * restores the chosen document's title); a live region says how many documents were found.
 */
export function ReferenceCombobox(props: {
  id: string;
  /** The field's label, which also names the list of results. */
  label: string;
  collection: string;
  value: string;
  /** The chosen document's title ("" when none or deleted). */
  valueLabel: string;
  describedBy?: string;
  invalid?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  firstPage: ReferenceOption[];
  onChange(option: ReferenceOption | null): void;
}) {
  const { t } = useTranslation();
  const listId = useId();
  const [text, setText] = useState(props.valueLabel);
  const [open, setOpen] = useState(false);
  const { found: results, status, search: searchFor } = useCollectionSearch(props.collection, props.firstPage);
  const [active, setActive] = useState(-1);

  // A new chosen document (picked, or the form reset) shows its title.
  const [labelShown, setLabelShown] = useState(props.valueLabel);
  if (labelShown !== props.valueLabel) {
    setLabelShown(props.valueLabel);
    setText(props.valueLabel);
  }
  function search(typed: string) {
    searchFor(typed, (found) => setActive(found.length ? 0 : -1));
  }

  function choose(option: ReferenceOption) {
    props.onChange(option);
    setText(option.label);
    setOpen(false);
    setActive(-1);
  }

  function close() {
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) {
        setOpen(true);
        if (status === "idle") search(text === props.valueLabel ? "" : text);
        setActive(results.length ? (event.key === "ArrowDown" ? 0 : results.length - 1) : -1);
        return;
      }
      if (!results.length) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (current + step + results.length) % results.length);
    } else if (event.key === "Enter") {
      if (!open) return;
      // Enter picks; it never submits the form while the list is open.
      event.preventDefault();
      const option = results[active];
      if (option) choose(option);
    } else if (event.key === "Escape") {
      if (open) {
        event.preventDefault();
        close();
      } else if (text !== props.valueLabel) {
        event.preventDefault();
        setText(props.valueLabel);
      }
    }
  }

  const activeId = open && active >= 0 && results[active] ? `${listId}-${active}` : undefined;
  const locked = props.disabled || props.readOnly;
  const announce =
    status === "loading"
      ? t("references.searching")
      : status === "error"
        ? t("references.searchFailed")
        : status === "done"
          ? results.length
            ? t("references.searchResults", { count: results.length })
            : t("references.searchNone")
          : "";
  return (
    <div className="reference-combobox">
      <input
        id={props.id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={activeId}
        aria-describedby={props.describedBy}
        aria-invalid={props.invalid || undefined}
        placeholder={t("references.searchPlaceholder")}
        value={text}
        disabled={props.disabled}
        readOnly={props.readOnly}
        onChange={(event) => {
          const typed = event.currentTarget.value;
          setText(typed);
          setOpen(true);
          // Until the server answers, the shown results are the last text's: none is active, so Enter picks none.
          setActive(-1);
          if (typed === "") props.onChange(null);
          search(typed);
        }}
        onKeyDown={locked ? undefined : onKeyDown}
        onBlur={() => {
          close();
          // Typing without picking changes nothing: the chosen document's title comes back.
          if (text.trim() !== "") setText(props.valueLabel);
        }}
      />
      <ul id={listId} role="listbox" className="reference-listbox" hidden={!open || results.length === 0} aria-label={props.label}>
        {results.map((option, index) => (
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- the keys are the input's (aria-activedescendant)
          <li
            key={option.value}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={index === active ? "active" : undefined}
            // Keeps the focus in the input, so that a click picks before the blur closes the list.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(option)}
          >
            {option.thumbnail ? <img src={option.thumbnail} alt="" width={32} height={32} loading="lazy" /> : null}
            <span className="reference-option-name">
              <span>{option.label}</span>
              {option.state ? <PublicationBadge state={option.state} /> : null}
            </span>
          </li>
        ))}
      </ul>
      <p className="visually-hidden" role="status" aria-live="polite">
        {open ? announce : ""}
      </p>
    </div>
  );
}
