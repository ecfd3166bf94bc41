import { ButtonRow } from "~/components/button-row";
import { useBucketForm } from "./context";

/** Tabs of the form's locales: choosing one makes it the form's active locale (a translated field's, a preview's). */
export function LocaleTabs({ label, withErrors }: { label?: string; withErrors?: ReadonlySet<string> }) {
  const settings = useBucketForm();
  return (
    <ButtonRow
      kind="tabs"
      className="locale-tabs"
      label={label}
      options={settings.locales}
      chosen={settings.activeLocale}
      onChoose={(locale) => settings.setActiveLocale(locale)}
      text={(locale) => locale.toUpperCase()}
      buttonClass={(locale) => (withErrors?.has(locale) ? "locale-tab has-error" : "locale-tab")}
    />
  );
}
