import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { DEFAULT_SHARE_EXPIRY, lastShareDay, MAX_SHARE_DAYS, SHARE_EXPIRY_DAYS } from "@core/content/share-choices";
import { todayUtc } from "@core/calendar-date";
import { FieldError } from "~/components/form-errors";
import "./share-messages";

/*
 * A share form's expiry: a number of days, or a date up to MAX_SHARE_DAYS ahead (the document's share panel and a
 * release's share form).
 *
 *   <ShareExpiry formId={form.id} expiry={fields.expiry} expiresOn={fields.expiresOn} />
 */
export function ShareExpiry({
  formId,
  expiry,
  expiresOn,
}: {
  formId: string;
  expiry: FieldMetadata<string | undefined>;
  expiresOn: FieldMetadata<string | undefined>;
}) {
  const { t } = useTranslation();
  return (
    <div className="share-expiry">
      <label htmlFor={`${formId}-expiry`}>{t("shareables.panel.expiry")}</label>
      <select id={`${formId}-expiry`} name="expiry" defaultValue={DEFAULT_SHARE_EXPIRY}>
        {SHARE_EXPIRY_DAYS.map((days) => (
          <option key={days} value={days}>
            {t("shareables.panel.days", { count: Number(days) })}
          </option>
        ))}
        <option value="date">{t("shareables.panel.onDate")}</option>
      </select>
      <FieldError field={expiry} />
      <label htmlFor={expiresOn.id}>{t("shareables.panel.date")}</label>
      <input
        type="date"
        id={expiresOn.id}
        name="expiresOn"
        min={todayUtc()}
        max={lastShareDay()}
        aria-describedby={`${expiresOn.descriptionId} ${expiresOn.errorId}`}
        aria-invalid={expiresOn.errors?.length ? true : undefined}
      />
      <p id={expiresOn.descriptionId} className="field-hint">
        {t("shareables.panel.dateHint", { days: MAX_SHARE_DAYS })}
      </p>
      <FieldError field={expiresOn} />
    </div>
  );
}
