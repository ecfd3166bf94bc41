import { use, type ComponentType } from "react";
import type { CataloguePart } from "@core/catalogue-parts";
import { useTranslation } from "react-i18next";
import { normalizeLocale } from "@core/locales";
import { hydrationWaitsFor } from "~/lib/before-hydration";
import { useInterfaceLanguage } from "~/lib/i18n";
import type { FieldProps } from "./field-shell";
import { ON_DEMAND_KINDS, ON_DEMAND_MESSAGES, type OnDemandKind } from "./on-demand-kinds";
// The trend list's styles: in the page's stylesheets, which the server links, not in the chunk fetched later.
import "~/styles/trend-screen.css";

/*
 * The browser's on-demand-fields.tsx (vite.config.ts swaps it in): each kind's code is a chunk of its own, fetched
 * the first time a form renders a field of that kind, with the catalogue part of its messages when they are not in
 * `common` (on-demand-kinds.ts). Until they arrive the render waits: hydration leaves the server's HTML in place, a
 * navigation keeps the old page shown. The kinds the server rendered are fetched before hydration (below): a
 * field whose code is not there yet suspends the whole hydration, which then starts again from the top, once per
 * kind.
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

const fetching = new Map<OnDemandKind, Promise<ComponentType<FieldProps>>>();

function fetchCode(kind: OnDemandKind): Promise<ComponentType<FieldProps>> {
  let code = fetching.get(kind);
  if (!code) fetching.set(kind, (code = CODE[kind]()));
  return code;
}

// The kinds the server rendered (FieldShell's `data-kind`): the route modules, and this one with them, run before
// the entry hydrates the page (its body is parsed by then).
hydrationWaitsFor.push(...ON_DEMAND_KINDS.filter((kind) => document.querySelector(`[data-kind="${kind}"]`)).map(fetchCode));

function onDemand(kind: OnDemandKind): ComponentType<FieldProps> {
  const part = ON_DEMAND_MESSAGES[kind];
  const parts: readonly CataloguePart[] = part ? [part] : [];
  return function OnDemandField(props: FieldProps) {
    const { i18n } = useTranslation();
    // The code side by side with the messages, not after them; a failure surfaces where the field renders.
    const code = fetchCode(kind);
    useInterfaceLanguage(i18n, normalizeLocale(i18n.language) ?? "en", parts);
    // Once the code is there, `use` returns it at once (React notes a promise's outcome on the promise).
    const Field = use(code);
    return <Field {...props} />;
  };
}

export const ON_DEMAND_FIELDS = Object.fromEntries(ON_DEMAND_KINDS.map((kind) => [kind, onDemand(kind)])) as Record<
  OnDemandKind,
  ComponentType<FieldProps>
>;
