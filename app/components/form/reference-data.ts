import { useTranslation } from "react-i18next";
import type { ReferenceCollection, ReferenceOption, ReferenceTarget } from "@core/content/references";
import type { JsonSchema } from "@core/schema/normalize";
import type { PublicationState } from "@core/content/publication";
import { useBucketForm } from "./context";

/** What a reference field shows of a stored contentId. */
export interface ReferenceView {
  label: string;
  thumbnail: string | null;
  /** No document with this contentId exists any more: the field says so and keeps the value. */
  deleted: boolean;
  /** Known as a document of the collection (a link can be made). */
  known: boolean;
  /** What exhibits get of it (docs/publishing.md), where known. */
  state?: PublicationState;
}

/**
 * The collection of a reference field (`_ref`) and how to show a value of it: a loaded option, a document the
 * form's value names (the loader's referenceTargets), or one the editor just picked (`extra`).
 */
export function useReferenceCollection(schema: JsonSchema, extra: Record<string, ReferenceTarget> = {}) {
  const { t } = useTranslation();
  const { referenceOptions, referenceTargets } = useBucketForm();
  const collectionName = String(schema._ref);
  const collection: ReferenceCollection = referenceOptions[collectionName] ?? { slug: null, options: [] };
  const describe = (contentId: string): ReferenceView => {
    const target = extra[contentId] ?? referenceTargets?.[contentId.toLowerCase()];
    if (target?.deleted) return { label: t("references.deleted"), thumbnail: null, deleted: true, known: false };
    if (target) return { label: target.label, thumbnail: target.thumbnail ?? null, deleted: false, known: true, state: target.state };
    const option = collection.options.find((candidate) => candidate.value === contentId);
    if (option) return { label: option.label, thumbnail: option.thumbnail ?? null, deleted: false, known: true, state: option.state };
    return { label: t("references.unknownValue", { contentId }), thumbnail: null, deleted: false, known: false };
  };
  return { collectionName, collection, describe };
}

/** The options of a select: the collection's, with the current value's own when the list lacks it (kept, never lost). */
export function optionsWithValue(options: ReferenceOption[], value: string, view: ReferenceView | null): ReferenceOption[] {
  if (!value || !view || options.some((option) => option.value === value)) return options;
  return [{ value, label: view.label, state: view.state }, ...options];
}

/**
 * A select option's text: its title, and its publication state unless it is published as it is (an <option> holds
 * no badge): 'Duinen bij Schoorl (Draft)'.
 */
export function useOptionLabel() {
  const { t } = useTranslation();
  return (option: Pick<ReferenceOption, "label" | "state">) =>
    option.state && option.state !== "published" ? `${option.label} (${t(`publicationState.${option.state}`)})` : option.label;
}
