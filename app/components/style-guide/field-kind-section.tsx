import { useTranslation } from "react-i18next";
import { FIELD_STATES } from "./field-specimen";
import type { FieldSpecimen } from "./field-specimen";
import { SpecimenForm } from "./specimen-form";

export const kindAnchor = (kind: string) => `kind-${kind}`;

/** One field kind in every state, side by side. */
export function FieldKindSection({ specimen, hydrated }: { specimen: FieldSpecimen; hydrated: boolean }) {
  const { t } = useTranslation();
  const { kind } = specimen;
  return (
    <section id={kindAnchor(kind)} className="style-kind" data-kind={kind} aria-labelledby={`${kindAnchor(kind)}-title`}>
      <h3 id={`${kindAnchor(kind)}-title`}>
        {t(`styleGuide.kinds.${kind}`)} <code className="style-code">{kind}</code>
      </h3>
      <div className="style-states">
        {FIELD_STATES.map((state) => (
          <div key={state} className="style-state" data-state={state}>
            <h4 className="style-state-name">{t(`styleGuide.states.${state}`)}</h4>
            <SpecimenForm
              id={`style-${kind}-${state}`}
              schema={specimen.schema}
              defaultValue={state === "empty" ? specimen.empty : state === "error" ? specimen.invalid : specimen.filled}
              lastResult={state === "error" ? specimen.errorResult : undefined}
              hydrated={hydrated}
              disabled={state === "disabled"}
              readOnly={state === "readOnly"}
            />
          </div>
        ))}
      </div>
    </section>
  );
}
