import { useTranslation } from "react-i18next";
import { CONFIRM_BREAKING_FIELD, impactNeedsConfirmation, type ImpactReport } from "@core/schema/impact";

/**
 * The explicit confirmation a schema save needs when the change breaks documents (impactNeedsConfirmation): a
 * checkbox named CONFIRM_BREAKING_FIELD inside the save form, with the reason above it. Renders nothing otherwise.
 */
export function ConfirmBreakingChange({ report, required = false }: { report: ImpactReport; required?: boolean }) {
  const { t } = useTranslation();
  if (!impactNeedsConfirmation(report)) return null;
  return (
    <div className="impact-confirm">
      {required ? (
        <p className="form-error" role="alert">
          {t("schemaImpact.confirmRequired")}
        </p>
      ) : null}
      <label className="inline-check">
        <input type="checkbox" name={CONFIRM_BREAKING_FIELD} value="on" />
        {t("schemaImpact.confirmBreaking")}
      </label>
    </div>
  );
}
