import type { CropCoordinates } from "./wire";

/*
 * Crop and thumbnail choice without JavaScript (spec §2 Field UI): inputs and a submit button of the edit
 * form itself, so the post keeps the form's other input (server/media/form-edits.ts applies them and the
 * page re-renders, like the number steps of core/form/step.ts).
 */

/** The crop's submit button; its value is the image field's name. */
export const MEDIA_CROP_FIELD = "__media_crop";
/** The thumbnail's submit button; its value is the video field's name. */
export const MEDIA_THUMB_FIELD = "__media_thumb";
/** Every input of these fallbacks starts with this: none of them is document data. */
export const MEDIA_EDIT_PREFIX = "__media_edit.";

export const CROP_AXES = ["x", "y", "width", "height"] as const satisfies ReadonlyArray<keyof CropCoordinates>;
export type CropAxis = (typeof CROP_AXES)[number];

/** The number input of one crop coordinate of a field. */
export const cropInputName = (field: string, axis: CropAxis) => `${MEDIA_EDIT_PREFIX}crop.${axis}.${field}`;
/** The radio buttons of a field's thumbnail: a still's index, or "custom". */
export const thumbInputName = (field: string) => `${MEDIA_EDIT_PREFIX}thumb.${field}`;
export const CUSTOM_THUMB_VALUE = "custom";

/** Whole, non-negative pixels as typed ("12", " 12 "); anything else is null. */
export function parsePixels(text: string): number | null {
  const trimmed = text.trim();
  return /^\d{1,6}$/.test(trimmed) ? Number(trimmed) : null;
}
