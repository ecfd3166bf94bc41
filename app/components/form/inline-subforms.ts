import { createContext } from "react";
import type { InlineSubFormData } from "@core/form/subforms";

/** The page's inline sub-forms by field (the loader's data); none inside a sub-form (one level only). */
export const InlineSubFormsContext = createContext<Readonly<Record<string, InlineSubFormData>>>({});
