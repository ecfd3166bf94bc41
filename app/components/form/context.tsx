import { createContext, useContext } from "react";
import type { ReferenceCollection } from "../../../core/content/references";

export interface BucketFormSettings {
  locales: string[];
  activeLocale: string;
  setActiveLocale(locale: string): void;
  /** True once React runs in the browser: enhancements (tabs, drag, live counters) switch on. */
  hydrated: boolean;
  referenceOptions: Record<string, ReferenceCollection>;
  /** Spec §6: admins and devs may edit text ids and add or remove entries. */
  canEditTextIds: boolean;
}

export const BucketFormContext = createContext<BucketFormSettings>({
  locales: [],
  activeLocale: "",
  setActiveLocale: () => undefined,
  hydrated: false,
  referenceOptions: {},
  canEditTextIds: false,
});

export const useBucketForm = () => useContext(BucketFormContext);
