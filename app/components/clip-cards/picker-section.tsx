import { useTranslation } from "react-i18next";
import { matchesCaseSearch, CASE_SEARCH_MAX, type CaseCard } from "@core/content/cases";
import { CASES_ADD_FIELD, CASES_CLOSE_FIELD, CASES_OPEN_FIELD, CASES_PICK_FIELD, CASES_SEARCH_FIELD } from "@core/form/cases-picker";
import { ClipCard } from "./clip-card";

/**
 * The picker without JavaScript: a section of the edit form with a search box and the collection's cases as
 * checkable clip cards. Its buttons post the form (every input kept); 'Add selected' adds the checked ones.
 */
export function CasesPickerSection(props: { name: string; formId: string; cards: CaseCard[]; chosen: string[]; search: string }) {
  const { t } = useTranslation();
  const shown = props.cards.filter((card) => !props.chosen.includes(card.contentId) && matchesCaseSearch(card, props.search));
  const headingId = `cases-picker-${props.name}`;
  const submit = { type: "submit" as const, form: props.formId, formNoValidate: true, value: props.name };
  return (
    <section className="cases-picker" aria-labelledby={headingId}>
      <h3 id={headingId}>{t("cases.pickerTitle")}</h3>
      <div className="cases-picker-search">
        <label htmlFor={`${headingId}-search`}>{t("cases.search")}</label>
        <input
          id={`${headingId}-search`}
          type="search"
          name={CASES_SEARCH_FIELD}
          defaultValue={props.search}
          maxLength={CASE_SEARCH_MAX}
          form={props.formId}
        />
        <button {...submit} name={CASES_OPEN_FIELD} className="button small">
          {t("cases.searchButton")}
        </button>
      </div>
      {shown.length ? (
        <ul className="clip-cards picker-cards">
          {shown.map((card) => (
            <ClipCard
              key={card.contentId}
              card={card}
              control={
                <label className="clip-card-check">
                  <input type="checkbox" name={CASES_PICK_FIELD} value={card.contentId} form={props.formId} />
                  <span className="visually-hidden">{t("cases.choose", { title: card.title })}</span>
                </label>
              }
            />
          ))}
        </ul>
      ) : (
        <p className="empty">{props.search ? t("cases.noMatch", { search: props.search }) : t("cases.noCases")}</p>
      )}
      <div className="modal-actions">
        <button {...submit} name={CASES_CLOSE_FIELD} className="button">
          {t("form.cancel")}
        </button>
        <button {...submit} name={CASES_ADD_FIELD} className="button primary">
          {t("cases.addSelected")}
        </button>
      </div>
    </section>
  );
}
