import type { ComponentType } from "react";
import { preloadModule } from "react-dom";
import ON_DEMAND_CHUNKS from "virtual:vitrine/on-demand-chunks";
import type { FieldProps } from "./field-shell";
import { FileField, ImageField, VideoField } from "./media/media-field";
import { InlineField } from "./inline-field";
import { PopupField } from "./popup-field";
import { ReferenceField } from "./reference-field";
import { ReferenceListField } from "./reference-list-field";
import { TagsField } from "./tags-field";
import { VideoCasesField } from "../clip-cards/cases-field";
import { TrendListField } from "../clip-cards/trend-list";
import { TrendSelectField } from "../clip-cards/trend-select";

/*
 * The field kinds whose code a form that does not use them should not pay for: media, references and sub-forms,
 * tags, the clip-card kinds. The server renders them from here; the browser build takes on-demand-fields.browser.tsx
 * instead (vite.config.ts), which fetches each kind's code the first time a form renders it. So that it need not
 * wait for hydration to ask, a field rendered here has its kind's chunks preloaded by the page's <head>.
 */

export const ON_DEMAND_KINDS = [
  "image", "video", "file", "reference", "referenceList", "inline", "popup", "tags", "videoCases", "trendSelect", "trendList",
] as const;
export type OnDemandKind = (typeof ON_DEMAND_KINDS)[number];

function preloaded(kind: OnDemandKind, Field: ComponentType<FieldProps>): ComponentType<FieldProps> {
  const chunks = ON_DEMAND_CHUNKS[kind] ?? [];
  return function PreloadedField(props: FieldProps) {
    for (const href of chunks) preloadModule(href, { as: "script" });
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
