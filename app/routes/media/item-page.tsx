import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { formatBytes } from "@core/media/bounds";
import { ALT_TEXT_MAX, CAPTION_MAX, CREDITS_MAX } from "@core/media/library";
import { dateTimeFormat } from "@core/date-formats";
import { FlashNotice } from "~/components/flash-notice";
import { dimensionsText, Preview, RefusedDeletions, UseList } from "~/components/media-library/library-items";
import { ReplaceForm } from "~/components/media-library/replace-form";
import type { itemPageData } from "./media.server";
import type { itemAction } from "./media-actions.server";

/*
 * One item of the library (app/routes/media/library.tsx, docs/media.md): its file, details and versions, the documents
 * that use it, its texts for the exhibits per locale of its bucket, a new file for every use, and its deletion.
 */

type ItemPageData = Awaited<ReturnType<typeof itemPageData>>;
type ActionData = Awaited<ReturnType<typeof itemAction>>["data"] | undefined;

export function ItemPage({ loaderData, actionData }: { loaderData: ItemPageData; actionData: ActionData }) {
  const { t, i18n } = useTranslation();
  const { item } = loaderData;
  const date = (iso: string) => dateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  const fileUrl = `/api/v1/media/${item.kind}/${item.contentId}`;
  return (
    <section className="media-item">
      <p>
        {loaderData.backToForm ? (
          <Link to={loaderData.backToForm} className="button small">
            {t("library.useItem.back")}
          </Link>
        ) : (
          <Link to="/media">{t("library.title")}</Link>
        )}
      </p>
      <h1>{item.name}</h1>
      {loaderData.notice === "replaced" ? <FlashNotice>{t("library.item.replaced")}</FlashNotice> : null}
      {item.shared ? (
        <p className="media-use-item">
          {t("library.useItem.intro")}{" "}
          <Link to={`/media/${item.shared.contentId}`}>{t("library.useItem.shared", { name: item.shared.name })}</Link>
        </p>
      ) : null}
      <div className="media-item-layout">
        <div className="media-item-file">
          <Preview item={item} />
          <a href={fileUrl} className="button small">
            {t("library.item.open")}
          </a>
        </div>
        <dl className="media-item-facts">
          <dt>{t("library.item.kind")}</dt>
          <dd>{t(`media.types.${item.kind}`)}</dd>
          {dimensionsText(item) ? (
            <>
              <dt>{t("library.item.dimensions")}</dt>
              <dd>{dimensionsText(item)}</dd>
            </>
          ) : null}
          <dt>{t("library.item.size")}</dt>
          <dd>{formatBytes(item.size)}</dd>
          <dt>{t("library.item.type")}</dt>
          <dd>{item.mimetype}</dd>
          <dt>{t("library.item.bucket")}</dt>
          <dd>{item.bucket.name}</dd>
          <dt>{t("library.item.uploaded")}</dt>
          <dd suppressHydrationWarning>
            {item.uploadedBy ? t("library.uploadedBy", { name: item.uploadedBy, date: date(item.createdAt) }) : date(item.createdAt)}
          </dd>
          <dt>{t("library.item.state")}</dt>
          <dd>{t(`library.states.${item.status}`)}</dd>
        </dl>
      </div>

      <Descriptions item={item} actionData={actionData} />

      <h2>{t("library.item.usedIn")}</h2>
      {item.useList.length || item.hiddenUses ? (
        <UseList uses={item.useList} hidden={item.hiddenUses} />
      ) : (
        <p className="muted">{t("library.item.notUsed")}</p>
      )}

      <h2>{t("library.item.versions")}</h2>
      <ol className="media-versions">
        {item.versions.map((version, index) => (
          <li key={version.id}>
            <a href={`${fileUrl}?version=${version.id}`}>{version.name}</a>{" "}
            <span className="muted" suppressHydrationWarning>
              {[dimensionsText({ ...version, duration: null }), formatBytes(version.size), version.createdBy, date(version.createdAt)]
                .filter(Boolean)
                .join(" · ")}
              {index === 0 ? ` (${t("library.item.current")})` : ""}
            </span>
          </li>
        ))}
      </ol>

      {item.shared ? null : (
        <ReplaceForm
          kind={item.kind}
          refusal={actionData?.intent === "replace" ? actionData.refusal : null}
          broken={actionData?.intent === "replace" ? actionData.broken : []}
        />
      )}

      {item.shared ? null : <Deletion item={item} actionData={actionData} />}
    </section>
  );
}

/** Deleting the item: offered while no document uses it. */
function Deletion({ item, actionData }: { item: ItemPageData["item"]; actionData: ActionData }) {
  const { t } = useTranslation();
  return (
    <>
      <h2>{t("library.item.delete")}</h2>
      {actionData?.intent === "delete" && actionData.refused.length ? <RefusedDeletions refused={actionData.refused} /> : null}
      {item.useList.length || item.hiddenUses ? (
        <p className="muted">{t("library.item.deleteUsed")}</p>
      ) : (
        <Form method="post" className="media-delete">
          <p className="muted">{t("library.item.deleteHint")}</p>
          <button type="submit" name="intent" value="delete" className="button danger">
            {t("library.item.delete")}
          </button>
        </Form>
      )}
    </>
  );
}

function Descriptions({ item, actionData }: { item: ItemPageData["item"]; actionData: ActionData }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const posted = actionData?.intent === "describe" ? actionData : null;
  const errors: Record<string, { key: string; params: Record<string, number> }> = posted?.errors ?? {};
  const value = (field: "alt" | "caption", locale: string) => posted?.input[field][locale] ?? item.descriptions[field][locale] ?? "";
  // A use item's empty text shows its shared item's: that one is the placeholder.
  const sharedText = (field: "alt" | "caption", locale: string) => item.shared?.descriptions[field][locale] || undefined;
  const errorOf = (name: string) => {
    const error = errors[name];
    return error ? (
      <p id={`${name}-error`} className="field-error">
        {t(error.key, error.params)}
      </p>
    ) : null;
  };
  const described = (name: string) => (errors[name] ? { "aria-invalid": true, "aria-describedby": `${name}-error` } : {});
  return (
    <Form method="post" className="media-descriptions">
      <h2>{t("library.item.descriptions")}</h2>
      <p className="muted">{t(item.shared ? "library.useItem.descriptionsHint" : "library.item.descriptionsHint")}</p>
      {posted?.saved && navigation.state === "idle" ? <FlashNotice>{t("library.item.saved")}</FlashNotice> : null}
      {item.locales.map((locale) => (
        <fieldset key={locale} lang={locale}>
          <legend>{locale.toUpperCase()}</legend>
          {item.kind !== "file" ? (
            <div className="field">
              <label htmlFor={`alt.${locale}`}>{t("library.item.alt")}</label>
              <p className="field-hint" id={`alt.${locale}-hint`}>
                {t("library.item.altHint")}
              </p>
              <textarea
                id={`alt.${locale}`}
                name={`alt.${locale}`}
                rows={2}
                maxLength={ALT_TEXT_MAX}
                defaultValue={value("alt", locale)}
                placeholder={sharedText("alt", locale)}
                {...described(`alt.${locale}`)}
              />
              {errorOf(`alt.${locale}`)}
            </div>
          ) : null}
          <div className="field">
            <label htmlFor={`caption.${locale}`}>{t("library.item.caption")}</label>
            <textarea
              id={`caption.${locale}`}
              name={`caption.${locale}`}
              rows={2}
              maxLength={CAPTION_MAX}
              defaultValue={value("caption", locale)}
              placeholder={sharedText("caption", locale)}
              {...described(`caption.${locale}`)}
            />
            {errorOf(`caption.${locale}`)}
          </div>
        </fieldset>
      ))}
      <div className="field">
        <label htmlFor="credits">{t("library.item.credits")}</label>
        <input
          id="credits"
          name="credits"
          type="text"
          maxLength={CREDITS_MAX}
          defaultValue={posted?.input.credits ?? item.descriptions.credits}
          placeholder={item.shared?.descriptions.credits || undefined}
          {...described("credits")}
        />
        {errorOf("credits")}
      </div>
      <button type="submit" name="intent" value="describe" className="button primary">
        {t("library.item.save")}
      </button>
    </Form>
  );
}
