import { lazy, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import type { CataloguePart } from "@core/catalogue-parts";
import { normalizeLocale } from "@core/locales";
import { useInterfaceLanguage } from "~/lib/i18n";
import type { FieldProps } from "./field-shell";
import { ON_DEMAND_KINDS, ON_DEMAND_MESSAGES, type OnDemandKind } from "./on-demand-kinds";
// The trend list's styles: in the page's stylesheets, which the server links, not in the chunk fetched later.
import "~/styles/trend-screen.css";

/*
 * The browser's on-demand-fields.tsx (vite.config.ts swaps it in): each kind's code is a chunk of its own, fetched
 * the first time a form renders a field of that kind, with the catalogue part of its messages when they are not in
 * `common` (on-demand-kinds.ts). Until they arrive the render waits: hydration leaves the server's HTML in place, a
 * navigation keeps the old page shown.
 */

type FieldCode = () => Promise<ComponentType<FieldProps>>;

const CODE: Record<OnDemandKind, FieldCode> = {
  image: () => import("./media/media-field").then((module) => module.ImageField),
  video: () => import("./media/media-field").then((module) => module.VideoField),
  file: () => import("./media/media-field").then((module) => module.FileField),
  reference: () => import("./reference-field").then((module) => module.ReferenceField),
  referenceList: () => import("./reference-list-field").then((module) => module.ReferenceListField),
  inline: () => import("./inline-field").then((module) => module.InlineField),
  popup: () => import("./popup-field").then((module) => module.PopupField),
  tags: () => import("./tags-field").then((module) => module.TagsField),
  videoCases: () => import("~/components/clip-cards/cases-field").then((module) => module.VideoCasesField),
  trendSelect: () => import("~/components/clip-cards/trend-select").then((module) => module.TrendSelectField),
  trendList: () => import("~/components/clip-cards/trend-list").then((module) => module.TrendListField),
};

function onDemand(load: FieldCode, part: CataloguePart | undefined): ComponentType<FieldProps> {
  let code: ReturnType<FieldCode> | undefined;
  const fetchCode = () => (code ??= load());
  const Field = lazy(async () => ({ default: await fetchCode() }));
  if (!part) return Field;
  return function FieldWithMessages(props: FieldProps) {
    const { i18n } = useTranslation();
    // The code side by side with the messages, not after them; a failure surfaces where the field renders.
    fetchCode().catch(() => undefined);
    useInterfaceLanguage(i18n, normalizeLocale(i18n.language) ?? "en", [part]);
    return <Field {...props} />;
  };
}

export const ON_DEMAND_FIELDS = Object.fromEntries(
  ON_DEMAND_KINDS.map((kind) => [kind, onDemand(CODE[kind], ON_DEMAND_MESSAGES[kind])]),
) as Record<OnDemandKind, ComponentType<FieldProps>>;
