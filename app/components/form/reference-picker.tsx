import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ReferenceCollection, ReferenceOption } from "@core/content/references";
import { useCollectionSearch } from "./collection-search";
import { ModalDialog } from "~/components/modal-dialog";
import { PublicationBadge } from "~/components/publishing/publication-badge";

/**
 * The picker of a reference list (with JavaScript): a modal dialog with a search box over the collection's
 * documents (filtered in the browser when the whole collection is loaded, asked of the server when it is
 * searchable), each with its thumbnail and title and an 'Add' button. Escape or Close closes it. `single` is the
 * picker of a field that holds one document (a popup's 'Choose existing'): 'Choose', and 'Chosen' for its value.
 */
export function ReferencePicker(props: {
  title: string;
  collectionName: string;
  collection: ReferenceCollection;
  chosen: readonly string[];
  single?: boolean;
  onPick(option: ReferenceOption): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState("");
  const { found, status, search } = useCollectionSearch(props.collectionName, props.collection.options);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  const { searchable } = props.collection;
  const needle = text.trim().toLocaleLowerCase();
  const results = searchable ? found : props.collection.options.filter((option) => option.label.toLocaleLowerCase().includes(needle));

  function onSearch(typed: string) {
    setText(typed);
    if (searchable) search(typed);
  }

  const words = props.single
    ? { title: t("references.chooseTitle", { title: props.title }), pick: t("references.choose"), already: t("references.chosen") }
    : { title: t("references.pickTitle", { title: props.title }), pick: t("references.pick"), already: t("references.alreadyAdded") };
  const announce =
    status === "loading"
      ? t("references.searching")
      : status === "error"
        ? t("references.searchFailed")
        : results.length
          ? t("references.searchResults", { count: results.length })
          : t("references.searchNone");
  return (
    <ModalDialog ref={dialog} className="reference-picker" labelledBy="reference-picker-title" onCancel={() => props.onClose()}>
      <h2 id="reference-picker-title">{words.title}</h2>
      <label htmlFor="reference-picker-search" className="visually-hidden">
        {t("references.search", { title: props.title })}
      </label>
      <input
        id="reference-picker-search"
        type="search"
        autoComplete="off"
        placeholder={t("references.searchPlaceholder")}
        value={text}
        onChange={(event) => onSearch(event.currentTarget.value)}
      />
      <p className="muted reference-picker-count" role="status" aria-live="polite">
        {announce}
      </p>
      <ul className="reference-picker-results">
        {results.map((option) => {
          const already = props.chosen.includes(option.value);
          return (
            <li key={option.value}>
              {option.thumbnail ? (
                <img src={option.thumbnail} alt="" width={40} height={40} loading="lazy" />
              ) : (
                <span className="reference-thumb-empty" aria-hidden="true" />
              )}
              <span className="reference-picker-title">
                {option.label}
                {option.state ? <PublicationBadge state={option.state} /> : null}
              </span>
              <button
                type="button"
                className="button small"
                disabled={already}
                // The name starts with the visible text (axe label-content-name-mismatch) and names the document.
                aria-label={`${already ? words.already : words.pick}: ${option.label}`}
                onClick={() => props.onPick(option)}
              >
                {already ? words.already : words.pick}
              </button>
            </li>
          );
        })}
      </ul>
      <div className="modal-actions">
        <button type="button" className="button" onClick={() => props.onClose()}>
          {t("references.close")}
        </button>
      </div>
    </ModalDialog>
  );
}
