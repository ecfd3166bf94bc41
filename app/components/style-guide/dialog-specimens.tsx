import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useSearchParams } from "react-router";
import type { Locale } from "@core/locales";
import { normalizeSchema } from "@core/schema/normalize";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { BucketFormModal } from "~/components/form/bucket-form-modal";
import { FieldByKind } from "~/components/form/nested-field";
import { SchemaField } from "~/components/form/schema-field";
import { IEWarning } from "~/components/ie-warning";
import { FIXTURE_LOCALES } from "./field-fixtures";

/** The search parameter that opens the confirm dialog (a link: it opens without JavaScript too). */
const DIALOG_PARAM = "dialog";
const CONFIRMED_PARAM = "confirmed";

export function ConfirmDialogSpecimen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <div className="style-stack">
      <p>
        <Link to={`/style?${DIALOG_PARAM}=confirm#dialogs`} className="button" preventScrollReset>
          {t("styleGuide.openConfirm")}
        </Link>
      </p>
      {params.has(CONFIRMED_PARAM) ? (
        <p className="notice-success" role="status">
          {t("styleGuide.confirmed")}
        </p>
      ) : null}
      {params.get(DIALOG_PARAM) === "confirm" ? (
        <ConfirmDialog
          title={t("overview.deleteTitle")}
          cancelTo="/style#dialogs"
          confirm={
            <Form method="get" action="/style#dialogs" preventScrollReset>
              <input type="hidden" name={CONFIRMED_PARAM} value="1" />
              <button type="submit" className="button danger">
                {t("form.delete")}
              </button>
            </Form>
          }
        >
          <p>{t("overview.deleteText", { title: t("styleGuide.sample.textValue") })}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/**
 * The bucket-form modal, full and partial, over a sample bucket. It opens with JavaScript only (it is
 * a dialog over the page); cancelling answers null. Its bucket is not stored: saving fails, as it says.
 */
export function BucketFormModalSpecimen({ hydrated, locale }: { hydrated: boolean; locale: Locale }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<"full" | "partial" | null>(null);
  const [outcome, setOutcome] = useState<"saved" | "cancelled" | null>(null);
  const bucket = useMemo(() => {
    const jsonSchema = {
      type: "object",
      required: ["title"],
      properties: {
        title: { type: "string", title: t("styleGuide.sample.textTitle") },
        caption: { type: "string", translate: true, title: t("styleGuide.sample.translateObjectTitle") },
        published: { type: "boolean", title: t("styleGuide.sample.publishedTitle") },
      },
    };
    const { schema } = normalizeSchema(jsonSchema, FIXTURE_LOCALES);
    return { slug: "style-guide", collectionName: "style-guide", locales: [...FIXTURE_LOCALES], schema, validatorUrl: null };
  }, [t]);
  return (
    <div className="style-stack">
      <p className="style-row">
        <button type="button" className="button" disabled={!hydrated} onClick={() => setOpen("full")}>
          {t("styleGuide.openModal")}
        </button>
        <button type="button" className="button" disabled={!hydrated} onClick={() => setOpen("partial")}>
          {t("styleGuide.openPartialModal")}
        </button>
      </p>
      {outcome ? (
        <p className="notice-success" role="status">
          {t(`styleGuide.modal.${outcome}`)}
        </p>
      ) : null}
      {/* A modal opens from a field, which gives it the way to render its own fields: here it opens from the page. */}
      {open ? (
        <FieldByKind.Provider value={SchemaField}>
          <BucketFormModal
            bucket={bucket}
            document={{ title: t("styleGuide.sample.textValue"), caption: { en: "Low tide on the Wadden Sea", nl: "Eb op de Waddenzee" } }}
            properties={open === "partial" ? ["title"] : undefined}
            title={open === "partial" ? t("form.editTitle", { title: t("styleGuide.sample.textValue") }) : t("styleGuide.modalTitle")}
            submitText={open === "partial" ? t("form.save") : undefined}
            messageLocale={locale}
            onResolve={(saved) => {
              setOpen(null);
              setOutcome(saved ? "saved" : "cancelled");
            }}
          />
        </FieldByKind.Provider>
      ) : null}
    </div>
  );
}

/** The Internet Explorer 9 and 10 notice (spec §2), as it shows in that browser (a copy that does not respond). */
export function IEWarningSpecimen() {
  return (
    <div className="style-stage" inert>
      <IEWarning version={10} />
    </div>
  );
}
