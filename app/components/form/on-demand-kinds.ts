import type { CataloguePart } from "@core/catalogue-parts";

/** The field kinds whose code a form that does not use them should not pay for (on-demand-fields.tsx). */
export const ON_DEMAND_KINDS = [
  "image",
  "video",
  "file",
  "reference",
  "referenceList",
  "inline",
  "popup",
  "tags",
  "videoCases",
  "trendSelect",
  "trendList",
] as const;
export type OnDemandKind = (typeof ON_DEMAND_KINDS)[number];

/** The catalogue part a kind's messages are in when they are not in `common`: it comes with the kind's code. */
export const ON_DEMAND_MESSAGES: Partial<Record<OnDemandKind, CataloguePart>> = {
  image: "media",
  video: "media",
  file: "media",
  videoCases: "pages",
  trendList: "pages",
};
