import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { caseCardOf, CASE_SEARCH_MAX, matchesCaseSearch, type CaseCard } from "@core/content/cases";
import type { JsonSchema } from "@core/schema/normalize";
import { requestJson } from "~/lib/api-client";
import { useRootData } from "~/lib/root-data";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { lazyDialog, opensInBrowserOnly } from "~/lib/lazy-dialog";
import { useBucketForm } from "~/components/form/context";
import { ClipCard } from "./clip-card";
import { ModalDialog } from "~/components/modal-dialog";

const BucketFormModal = lazyDialog(
  import.meta.env.SSR ? opensInBrowserOnly : () => import("~/components/form/bucket-form-modal").then((module) => module.BucketFormModal),
);

interface CasesBucket {
  slug: string;
  collectionName: string;
  locales: string[];
  schema: JsonSchema;
  validatorUrl: string | null;
}

/** The collection's cases as clip cards, through GET …/any/content?populate=true. */
async function fetchCases(collection: string): Promise<CaseCard[]> {
  const documents = await requestJson<Array<Record<string, unknown>> | null>(
    `/api/v1/buckets/any/content?collection=${encodeURIComponent(collection)}&populate=true`,
  );
  return (documents ?? []).flatMap((document) => caseCardOf(document) ?? []);
}

/**
 * The cases picker (JavaScript): the collection's cases as selectable clip cards with a search, from
 * GET /api/v1/buckets/any/content?collection=…&populate=true. A new case is made in the bucket-form modal
 * (POST /api/v1/buckets/{slug}/save, its video uploaded with its job progress); a case is deleted behind the
 * confirm dialog (DELETE /api/v1/buckets/{slug}/content/{contentId}/{_id}). Failures are logged and shown as a
 * short notice. Closing answers the chosen contentIds and the cards seen.
 */
export function CasesPickerModal(props: {
  slug: string;
  collection: string;
  chosen: string[];
  maxAdd: number | null;
  onClose(added: string[], cards: CaseCard[]): void;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  // The new case's messages in the interface language, like the page around it (and the popup sub-form's modal).
  const messageLocale = useRootData()?.locale ?? "en";
  const { canEditTextIds } = useBucketForm();
  const [cards, setCards] = useState<CaseCard[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [search, setSearch] = useState("");
  const [selected, setSelected] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [creating, setCreating] = useState<CasesBucket | null>(null);
  const [deleting, setDeleting] = useState<CaseCard | null>(null);

  const load = () =>
    fetchCases(props.collection).then(
      (fetched) => {
        setCards(fetched);
        setLoadFailed(false);
      },
      (error: unknown) => {
        console.error("Error fetching cases", error);
        setLoadFailed(true);
      },
    );

  useEffect(() => {
    dialog.current?.showModal();
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const close = (added: string[]) => {
    dialog.current?.close();
    props.onClose(added, cards ?? []);
  };

  async function startNewCase() {
    setNotice(null);
    try {
      setCreating(await requestJson<CasesBucket>(`/api/v1/buckets/${encodeURIComponent(props.slug)}/schema`));
    } catch (error) {
      console.error("Error saving case", error);
      setNotice(t("cases.saveFailed"));
    }
  }

  async function deleteCase(card: CaseCard) {
    setDeleting(null);
    setNotice(null);
    try {
      await requestJson(`/api/v1/buckets/${encodeURIComponent(props.slug)}/content/${card.contentId}/${card._id}`, { method: "DELETE" });
      setSelected((before) => before.filter((id) => id !== card.contentId));
      await load();
    } catch (error) {
      console.error("Error deleting case", error);
      setNotice(t("cases.deleteFailed"));
    }
  }

  const shown = (cards ?? []).filter((card) => !props.chosen.includes(card.contentId) && matchesCaseSearch(card, search));
  const full = props.maxAdd !== null && selected.length >= props.maxAdd;
  const toggle = (id: string) =>
    setSelected((before) => (before.includes(id) ? before.filter((other) => other !== id) : full ? before : [...before, id]));

  return createPortal(
    <ModalDialog ref={dialog} className="cases-picker-modal" labelledBy="cases-picker-title" onCancel={() => close([])}>
      <div className="media-modal-header">
        <h2 id="cases-picker-title">{t("cases.pickerTitle")}</h2>
        <button type="button" className="button small" onClick={() => void startNewCase()}>
          {t("cases.newCase")}
        </button>
      </div>
      {notice ? (
        <p className="form-error cases-notice" role="alert">
          {notice}
        </p>
      ) : null}
      <div className="cases-picker-search">
        <label htmlFor="cases-picker-search">{t("cases.search")}</label>
        <input
          id="cases-picker-search"
          type="search"
          value={search}
          maxLength={CASE_SEARCH_MAX}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      {cards === null && !loadFailed ? (
        <p className="empty" role="status">
          {t("cases.loading")}
        </p>
      ) : null}
      {loadFailed ? (
        <p className="form-error" role="alert">
          {t("cases.loadFailed")}
        </p>
      ) : null}
      {cards !== null ? (
        shown.length ? (
          <ul className="clip-cards picker-cards">
            {shown.map((card) => {
              const isSelected = selected.includes(card.contentId);
              return (
                <ClipCard
                  key={card.contentId}
                  card={card}
                  selected={isSelected}
                  control={
                    <button
                      type="button"
                      className="clip-card-select"
                      aria-pressed={isSelected}
                      disabled={!isSelected && full}
                      onClick={() => toggle(card.contentId)}
                    >
                      <span className="visually-hidden">{t("cases.choose", { title: card.title })}</span>
                    </button>
                  }
                  actions={
                    <button type="button" className="button small danger-text" onClick={() => setDeleting(card)}>
                      {t("cases.delete")}
                      <span className="visually-hidden"> {card.title}</span>
                    </button>
                  }
                />
              );
            })}
          </ul>
        ) : (
          <p className="empty">{search ? t("cases.noMatch", { search }) : t("cases.noCases")}</p>
        )
      ) : null}
      <div className="modal-actions">
        <button type="button" className="button" onClick={() => close([])}>
          {t("form.cancel")}
        </button>
        <button type="button" className="button primary" disabled={!selected.length} onClick={() => close(selected)}>
          {t("cases.addSelectedCount", { count: selected.length })}
        </button>
      </div>
      {deleting ? (
        <ConfirmDialog
          title={t("cases.deleteTitle")}
          onCancel={() => setDeleting(null)}
          confirm={
            <button type="button" className="button danger" onClick={() => void deleteCase(deleting)}>
              {t("cases.delete")}
            </button>
          }
        >
          <p>{t("cases.deleteText", { title: deleting.title || t("cases.untitled") })}</p>
        </ConfirmDialog>
      ) : null}
      {creating ? (
        <BucketFormModal
          bucket={creating}
          title={t("cases.newCase")}
          messageLocale={messageLocale}
          canEditTextIds={canEditTextIds}
          failureText={() => t("cases.saveFailed")}
          onResolve={(saved) => {
            setCreating(null);
            if (saved && typeof saved.contentId === "string") {
              const id = saved.contentId;
              if (!full) setSelected((before) => [...before, id]);
              void load();
            }
          }}
        />
      ) : null}
    </ModalDialog>,
    document.body,
  );
}
