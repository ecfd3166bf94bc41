import { getCollectionProps, type FieldMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { dateTimeFormat } from "@core/date-formats";
import { PERMISSIONS } from "@core/people-forms";
import { FieldError } from "~/components/form-errors";

/*
 * Pieces shared by the people screens (/settings/users, /settings/users/{id}, /settings/invite-user): how
 * permissions and bucket lists read, and their checkbox groups.
 */

/**
 * The server formats in its time zone, the browser in the user's; the hydration warning of that difference is
 * expected.
 */
export function formatDateTime(language: string, iso: string): string {
  return dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

export function DateTime({ iso }: { iso: string }) {
  const { i18n } = useTranslation();
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {formatDateTime(i18n.language, iso)}
    </time>
  );
}

export function PermissionList({ permissions }: { permissions: readonly string[] }) {
  const { t } = useTranslation();
  if (permissions.length === 0) return <span className="muted">{t("adminUsers.noPermissions")}</span>;
  return (
    <span className="tag-list">
      {permissions.map((permission) => (
        <span key={permission} className={`tag tag-${permission}`}>
          {PERMISSIONS.includes(permission as (typeof PERMISSIONS)[number])
            ? t(`adminUsers.permission.${permission as (typeof PERMISSIONS)[number]}`)
            : permission}
        </span>
      ))}
    </span>
  );
}

export function BucketList({ buckets }: { buckets: readonly string[] | null }) {
  const { t } = useTranslation();
  if (buckets === null) return <span className="muted">{t("adminUsers.allBuckets")}</span>;
  return <span className="bucket-slugs">{buckets.join(", ")}</span>;
}

export function PermissionCheckboxes({ field }: { field: FieldMetadata<string[] | undefined> }) {
  const { t } = useTranslation();
  return (
    <fieldset className="check-group" aria-describedby={field.errors?.length ? field.errorId : undefined}>
      <legend>{t("adminUsers.permissions")}</legend>
      {getCollectionProps(field, { type: "checkbox", options: [...PERMISSIONS] }).map(({ key, ...props }) => (
        <label key={key} className="check-option" htmlFor={props.id}>
          <input {...props} />
          <span>
            <strong>{t(`adminUsers.permission.${props.value as (typeof PERMISSIONS)[number]}`)}</strong>
            <span className="muted"> {t(`adminUsers.permissionHint.${props.value as (typeof PERMISSIONS)[number]}`)}</span>
          </span>
        </label>
      ))}
      <FieldError field={field} />
    </fieldset>
  );
}

export interface BucketChoice {
  slug: string;
  name: string;
  private: boolean;
  /** A slug the user's list still holds although no bucket has it any more: shown, so that saving keeps or drops it knowingly. */
  missing?: boolean;
}

/** None chosen means every bucket: the hint says so. */
export function BucketCheckboxes({ field, buckets }: { field: FieldMetadata<string[] | undefined>; buckets: readonly BucketChoice[] }) {
  const { t } = useTranslation();
  const names = new Map(buckets.map((bucket) => [bucket.slug, bucket]));
  return (
    <fieldset className="check-group" aria-describedby={field.errors?.length ? field.errorId : undefined}>
      <legend>{t("adminUsers.buckets")}</legend>
      <p className="muted check-hint">{t("adminUsers.bucketsHint")}</p>
      {buckets.length === 0 ? <p className="empty">{t("adminUsers.noBuckets")}</p> : null}
      <div className="check-columns">
        {getCollectionProps(field, { type: "checkbox", options: buckets.map((bucket) => bucket.slug) }).map(({ key, ...props }) => {
          const bucket = names.get(props.value);
          return (
            <label key={key} className="check-option" htmlFor={props.id}>
              <input {...props} />
              <span>
                {bucket?.name ?? props.value} <code className="muted">{props.value}</code>
                {bucket?.private ? <span className="muted"> ({t("adminUsers.private")})</span> : null}
                {bucket?.missing ? <span className="field-error"> ({t("adminUsers.missingBucket")})</span> : null}
              </span>
            </label>
          );
        })}
      </div>
      <FieldError field={field} />
    </fieldset>
  );
}
