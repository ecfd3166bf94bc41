import { lazy, type ComponentType } from "react";
import type { FieldProps } from "./field-shell";
import type { OnDemandKind } from "./on-demand-fields";
// The trend list's styles: in the page's stylesheets, which the server links, not in the chunk fetched later.
import "../../styles/trend-screen.css";

/*
 * The browser's on-demand-fields.tsx (vite.config.ts swaps it in): each kind's code is a chunk of its own, fetched
 * the first time a form renders a field of that kind. Until it arrives the render waits: hydration leaves the
 * server's HTML in place, a navigation keeps the old page shown.
 */

const onDemand = (load: () => Promise<ComponentType<FieldProps>>) => lazy(async () => ({ default: await load() }));

export const ON_DEMAND_FIELDS: Record<OnDemandKind, ComponentType<FieldProps>> = {
  image: onDemand(() => import("./media/media-field").then((module) => module.ImageField)),
  video: onDemand(() => import("./media/media-field").then((module) => module.VideoField)),
  file: onDemand(() => import("./media/media-field").then((module) => module.FileField)),
  reference: onDemand(() => import("./reference-field").then((module) => module.ReferenceField)),
  referenceList: onDemand(() => import("./reference-list-field").then((module) => module.ReferenceListField)),
  inline: onDemand(() => import("./inline-field").then((module) => module.InlineField)),
  popup: onDemand(() => import("./popup-field").then((module) => module.PopupField)),
  tags: onDemand(() => import("./tags-field").then((module) => module.TagsField)),
  videoCases: onDemand(() => import("../clip-cards/cases-field").then((module) => module.VideoCasesField)),
  trendSelect: onDemand(() => import("../clip-cards/trend-select").then((module) => module.TrendSelectField)),
  trendList: onDemand(() => import("../clip-cards/trend-list").then((module) => module.TrendListField)),
};
