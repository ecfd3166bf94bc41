import { getCollectionProps, getInputProps, type FieldMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { WEBHOOK_EVENTS, WEBHOOK_SECRET_MAX, type WebhookEvent } from "@core/webhook-forms";
import { FieldError } from "~/components/form-errors";

/*
 * The fields of a webhook (/settings/webhooks/new and /settings/webhooks/{id}): URL, events, buckets and the
 * signing secret. Plain inputs, so the form works without JavaScript; Conform validates them in the browser with
 * the same zod schema as the action.
 */

export interface WebhookBucketChoice {
  slug: string;
  name: string;
  private: boolean;
}

type Field<T> = FieldMetadata<T>;

export interface WebhookFieldsProps {
  fields: {
    url: Field<string | undefined>;
    events: Field<string[] | undefined>;
    scope: Field<string | undefined>;
    buckets: Field<string[] | undefined>;
    secretMode: Field<string | undefined>;
    secret: Field<string | undefined>;
  };
  buckets: readonly WebhookBucketChoice[];
  mode: "create" | "edit";
  /** Params of the server's refusal under the URL or the buckets (an address, a host, a slug). */
  params?: Record<string, unknown>;
}

/** An event's catalogue key under webhooks.event / webhooks.eventHint. */
export const eventKey = (event: WebhookEvent) =>
  event.startsWith("document.")
    ? (event.slice("document.".length) as "saved" | "deleted" | "published" | "unpublished")
    : event === "release.published"
      ? "releasePublished"
      : "releaseRolledBack";

const SECRET_MODES = {
  create: [
    ["generate", "webhooks.secretMode.generate"],
    ["own", "webhooks.secretMode.own"],
  ],
  edit: [
    ["keep", "webhooks.secretMode.keep"],
    ["generate", "webhooks.secretMode.regenerate"],
    ["own", "webhooks.secretMode.replace"],
  ],
} as const;

export function WebhookFields({ fields, buckets, mode, params }: WebhookFieldsProps) {
  const { t } = useTranslation();
  const eventBoxes = getCollectionProps(fields.events, { type: "checkbox", options: [...WEBHOOK_EVENTS] });
  const scopeRadios = getCollectionProps(fields.scope, { type: "radio", options: ["all", "some"] });
  const bucketBoxes = getCollectionProps(fields.buckets, { type: "checkbox", options: buckets.map((bucket) => bucket.slug) });
  const modes = SECRET_MODES[mode];
  const modeRadios = getCollectionProps(fields.secretMode, { type: "radio", options: modes.map(([value]) => value) });
  const bucketNames = new Map(buckets.map((bucket) => [bucket.slug, bucket]));
  return (
    <>
      <label htmlFor={fields.url.id}>{t("webhooks.url")}</label>
      <input
        {...getInputProps(fields.url, { type: "url" })}
        key={fields.url.key}
        autoComplete="off"
        inputMode="url"
        placeholder="https://"
        aria-describedby={`${fields.url.descriptionId} ${fields.url.errorId}`}
      />
      <p id={fields.url.descriptionId} className="field-hint">
        {t("webhooks.urlHint")}
      </p>
      <FieldError field={fields.url} params={params} />

      <fieldset className="check-group" aria-describedby={fields.events.errors?.length ? fields.events.errorId : undefined}>
        <legend>{t("webhooks.events")}</legend>
        {eventBoxes.map(({ key, ...props }) => {
          const event = props.value as WebhookEvent;
          return (
            <label key={key} className="check-option" htmlFor={props.id}>
              <input {...props} />
              <span>
                <strong>{t(`webhooks.event.${eventKey(event)}`)}</strong> <code className="muted">{event}</code>
                <span className="muted"> {t(`webhooks.eventHint.${eventKey(event)}`)}</span>
              </span>
            </label>
          );
        })}
        <FieldError field={fields.events} />
      </fieldset>

      <fieldset className="check-group" aria-describedby={fields.buckets.errors?.length ? fields.buckets.errorId : undefined}>
        <legend>{t("webhooks.buckets")}</legend>
        {scopeRadios.map(({ key, ...props }) => (
          <label key={key} className="check-option" htmlFor={props.id}>
            <input {...props} />
            <span>{t(props.value === "all" ? "webhooks.scope.all" : "webhooks.scope.some")}</span>
          </label>
        ))}
        {buckets.length === 0 ? <p className="empty">{t("webhooks.noBuckets")}</p> : null}
        <div className="check-columns webhook-buckets">
          {bucketBoxes.map(({ key, ...props }) => {
            const bucket = bucketNames.get(props.value);
            return (
              <label key={key} className="check-option" htmlFor={props.id}>
                <input {...props} />
                <span>
                  {bucket?.name ?? props.value} <code className="muted">{props.value}</code>
                  {bucket?.private ? <span className="muted"> ({t("webhooks.privateBucket")})</span> : null}
                </span>
              </label>
            );
          })}
        </div>
        <FieldError field={fields.buckets} params={params} />
      </fieldset>

      <fieldset className="check-group" aria-describedby={fields.secret.errors?.length ? fields.secret.errorId : undefined}>
        <legend>{t("webhooks.secret")}</legend>
        {modeRadios.map(({ key, ...props }) => (
          <label key={key} className="check-option" htmlFor={props.id}>
            <input {...props} />
            <span>{t(modes.find(([value]) => value === props.value)?.[1] ?? "webhooks.secretMode.generate")}</span>
          </label>
        ))}
        <label htmlFor={fields.secret.id} className="visually-hidden">
          {t("webhooks.secret")}
        </label>
        <input
          {...getInputProps(fields.secret, { type: "text" })}
          key={fields.secret.key}
          autoComplete="off"
          spellCheck={false}
          maxLength={WEBHOOK_SECRET_MAX}
          aria-describedby={`${fields.secret.descriptionId} ${fields.secret.errorId}`}
        />
        <p id={fields.secret.descriptionId} className="field-hint">
          {t("webhooks.secretHint")}
        </p>
        <FieldError field={fields.secret} />
      </fieldset>
    </>
  );
}
