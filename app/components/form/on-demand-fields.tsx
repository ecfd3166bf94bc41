import type { ComponentType } from "react";
import { preload, preloadModule } from "react-dom";
import { useTranslation } from "react-i18next";
import ON_DEMAND_CHUNKS from "virtual:vitrine/on-demand-chunks";
import { normalizeLocale } from "@core/locales";
import { CATALOGUE_URLS } from "~/lib/catalogue-urls";
import type { FieldProps } from "./field-shell";
import { FileField, ImageField, VideoField } from "./media/media-field";
import { InlineField } from "./inline-field";
import { PopupField } from "./popup-field";
import { ReferenceField } from "./reference-field";
import { ReferenceListField } from "./reference-list-field";
import { TagsField } from "./tags-field";
import { VideoCasesField } from "~/components/clip-cards/cases-field";
import { TrendListField } from "~/components/clip-cards/trend-list";
import { TrendSelectField } from "~/components/clip-cards/trend-select";
import { ON_DEMAND_MESSAGES, type OnDemandKind } from "./on-demand-kinds";

/*
 * The field kinds whose code a form that does not use them should not pay for: media, references and sub-forms,
 * tags, the clip-card kinds. The server renders them from here; the browser build takes on-demand-fields.browser.tsx
 * instead (vite.config.ts), which fetches each kind's code the first time a form renders it, with the catalogue
 * part of its messages when they are not in `common` (on-demand-kinds.ts). So that it need not wait for hydration
 * to ask, a field rendered here has its kind's chunks, and that part, preloaded by the page's <head>.
 */

function preloaded(kind: OnDemandKind, Field: ComponentType<FieldProps>): ComponentType<FieldProps> {
  const chunks = ON_DEMAND_CHUNKS[kind] ?? [];
  const part = ON_DEMAND_MESSAGES[kind];
  return function PreloadedField(props: FieldProps) {
    const { i18n } = useTranslation();
    for (const href of chunks) preloadModule(href, { as: "script" });
    // As root.tsx preloads the page's own parts: the browser's fetch of the part (loadCatalogue) takes this answer.
    if (part) preload(CATALOGUE_URLS[normalizeLocale(i18n.language) ?? "en"][part], { as: "fetch", crossOrigin: "anonymous" });
    return <Field {...props} />;
  };
}

export const ON_DEMAND_FIELDS: Record<OnDemandKind, ComponentType<FieldProps>> = {
  image: preloaded("image", ImageField),
  video: preloaded("video", VideoField),
  file: preloaded("file", FileField),
  reference: preloaded("reference", ReferenceField),
  referenceList: preloaded("referenceList", ReferenceListField),
  inline: preloaded("inline", InlineField),
  popup: preloaded("popup", PopupField),
  tags: preloaded("tags", TagsField),
  videoCases: preloaded("videoCases", VideoCasesField),
  trendSelect: preloaded("trendSelect", TrendSelectField),
  trendList: preloaded("trendList", TrendListField),
};
