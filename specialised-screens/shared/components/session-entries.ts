import { useField } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import type { CaseVideo } from "@core/content/cases";
import type { JsonSchema } from "@core/schema/normalize";
import { useClipCards } from "~/components/clip-cards/context";

/** One case of the session as the preview shows it. */
export interface SessionEntry {
  id: string;
  title: string;
  still: string | null;
  video: CaseVideo | null;
}

/**
 * The session's cases in their current order (the form's live value of the cases field), with what the page's clip
 * card data knows of each: title, still, video. A case the data does not know (deleted) has no video.
 */
export function useSessionEntries(name: string, schema: JsonSchema): SessionEntry[] {
  const { t } = useTranslation();
  const { data } = useClipCards();
  const [meta] = useField<string[]>(name);
  const items = (schema.items ?? {}) as JsonSchema;
  const cards = data.cases[typeof items._ref === "string" ? items._ref : ""]?.cards ?? [];
  return meta.getFieldList().flatMap((row) => {
    const id = row.value ?? row.initialValue ?? "";
    if (!id) return [];
    const card = cards.find((candidate) => candidate.contentId === id);
    return [
      { id, title: card ? card.title || t("cases.untitled") : t("cases.deleted"), still: card?.still ?? null, video: card?.video ?? null },
    ];
  });
}

/** The sum of the known durations, in seconds. */
export const totalDuration = (entries: readonly SessionEntry[]) => entries.reduce((sum, entry) => sum + (entry.video?.duration ?? 0), 0);
