import { useTranslation } from "react-i18next";
import type { CropBounds } from "@core/media/bounds";
import { FieldPostButton } from "~/components/form/field-post-button";
import { CropConstraints } from "./crop-constraints";
import { CROP_AXES, CUSTOM_THUMB_VALUE, MEDIA_CROP_FIELD, MEDIA_THUMB_FIELD, cropInputName, thumbInputName } from "@core/media/form-edit";
import type { MediaContent } from "@core/media/wire";

/*
 * Crop and thumbnail choice without JavaScript (spec §2): inputs and a submit button of the edit form, so
 * the post keeps the form's other input; the server applies them with the same checks as the crop and
 * thumb calls and re-renders the page (server/media/form-edits.ts). With JavaScript the dialogs replace them.
 */

/** The crop as numbers: x, y, width and height in the original's pixels, with the field's crop bounds shown. */
export function CropFallback(props: {
  name: string;
  formId: string;
  content: MediaContent;
  bounds: CropBounds;
  open: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const { content, bounds } = props;
  const start = content.crop ?? { x: 0, y: 0, width: content.dimensions?.width ?? 0, height: content.dimensions?.height ?? 0 };
  const label = content.originalImageVersionId ? t("media.recrop") : t("media.cropButton");
  return (
    <details className="media-edit-fallback crop-fallback" open={props.open}>
      <summary>{label}</summary>
      <fieldset>
        <legend>{t("media.cropForm.legend")}</legend>
        <p className="muted">
          {content.crop
            ? t("media.cropForm.current", { ...content.crop })
            : content.dimensions
              ? t("media.cropForm.original", { ...content.dimensions })
              : null}
        </p>
        <CropConstraints bounds={bounds} />
        <div className="crop-inputs">
          {CROP_AXES.map((axis) => {
            const id = `${props.formId}-${props.name}-crop-${axis}`;
            return (
              <div className="crop-input" key={axis}>
                <label htmlFor={id}>{t(`media.cropForm.${axis}`)}</label>
                <input
                  id={id}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  step={1}
                  name={cropInputName(props.name, axis)}
                  defaultValue={start[axis]}
                  form={props.formId}
                  disabled={props.disabled}
                />
              </div>
            );
          })}
        </div>
        <FieldPostButton edit={MEDIA_CROP_FIELD} field={props.name} formId={props.formId} disabled={props.disabled}>
          {label}
        </FieldPostButton>
      </fieldset>
    </details>
  );
}

/** The thumbnail as radio buttons, one per still (and the custom still), with a submit button. */
export function ThumbFallback(props: { name: string; formId: string; content: MediaContent; disabled?: boolean }) {
  const { t } = useTranslation();
  const { content } = props;
  const choices = content.thumbs.flatMap((still) =>
    typeof still.index === "number"
      ? [
          {
            value: String(still.index),
            url: still.url,
            label: t("media.stillNumber", { number: still.index + 1 }),
            current: content.thumb !== null && "index" in content.thumb && content.thumb.index === still.index,
          },
        ]
      : still.isCustom
        ? [
            {
              value: CUSTOM_THUMB_VALUE,
              url: still.url,
              label: t("media.customStillTab"),
              current: content.thumb !== null && "isCustom" in content.thumb,
            },
          ]
        : [],
  );
  if (!choices.length) return null;
  return (
    <details className="media-edit-fallback thumb-fallback">
      <summary>{t("media.selectThumbnail")}</summary>
      <fieldset>
        <legend>{t("media.selectStill")}</legend>
        <div className="thumb-choices">
          {choices.map((choice) => (
            <label className="thumb-choice" key={choice.value}>
              <input
                type="radio"
                name={thumbInputName(props.name)}
                value={choice.value}
                defaultChecked={choice.current}
                form={props.formId}
                disabled={props.disabled}
              />
              <img src={choice.url} alt="" loading="lazy" />
              <span>
                {choice.label}
                {choice.current ? ` (${t("media.thumbForm.current")})` : null}
              </span>
            </label>
          ))}
        </div>
        <FieldPostButton edit={MEDIA_THUMB_FIELD} field={props.name} formId={props.formId} disabled={props.disabled}>
          {t("media.thumbForm.submit")}
        </FieldPostButton>
      </fieldset>
    </details>
  );
}
