import { createContext, useContext } from "react";
import type { ClipCardData } from "@core/content/cases";
import type { CasesPickerState } from "@core/form/cases-picker";

export interface ClipCardSettings {
  /** The cases and trends the page's video-cases and trend-select fields name, loaded by the server. */
  data: ClipCardData;
  /** The picker a post without JavaScript asked for (core/form/cases-picker.ts), or null. */
  picker: CasesPickerState | null;
  /** The document the form edits (null for a new one): a trend select does not offer it (core/content/trends.ts). */
  documentId?: string | null;
}

export const ClipCardsContext = createContext<ClipCardSettings>({ data: { cases: {}, trends: {} }, picker: null });

export const useClipCards = () => useContext(ClipCardsContext);
