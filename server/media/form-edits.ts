import type { Services } from "@server/services";
import type { Bucket } from "@server/content/buckets";
import type { User } from "@server/accounts/users";
import { cropImage } from "./crop";
import { cropAllowed } from "./field-property";
import { selectThumb } from "./stills";
import { jobsOf } from "./store";
import { findVisibleMedia } from "./access";
import { errorText, HttpError } from "@server/errors";
import { mediaKindOfSchema } from "@core/form/field-kind";
import { cropBounds, type CropBounds } from "@core/media/bounds";
import {
  CROP_AXES,
  CUSTOM_THUMB_VALUE,
  MEDIA_CROP_FIELD,
  MEDIA_EDIT_PREFIX,
  MEDIA_THUMB_FIELD,
  cropInputName,
  parsePixels,
  thumbInputName,
} from "@core/media/form-edit";
import type { Locale } from "@core/locales";
import type { JsonSchema } from "@core/schema/normalize";
import { schemaAtName } from "@core/schema/walk";
import type { CropCoordinates, Thumb } from "@core/media/wire";

const INTENT_FIELD = "__intent__";

/** What a crop or thumbnail post did: the field it edited and the refusal's message under it (none: it was applied). */
export interface MediaEdit {
  field: string;
  errors: string[];
}

interface EditTarget {
  context: Services;
  user: User;
  bucket: Bucket;
  locale: Locale;
  /** The saved document the form edits (null: a new one): a crop of an item others use is this use's own. */
  documentId: string | null;
}

function firstText(formData: FormData, name: string): string | undefined {
  const value = formData.get(name);
  return typeof value === "string" ? value : undefined;
}

const definedOnly = (bounds: CropBounds): CropBounds =>
  Object.fromEntries(Object.entries(bounds).filter(([, value]) => value !== undefined));

/** The media a field's posted value names (the latest version), if the user may see it (a library item may be of another bucket). */
async function fieldMedia(formData: FormData, field: string, kind: "image" | "video", target: EditTarget) {
  const contentId = firstText(formData, field) ?? "";
  return (await findVisibleMedia(target.context.db, target.user, { contentId, kind })).media;
}

/** The crop's media (a use item's, when it became this use's own: the field then names it). */
async function crop(formData: FormData, field: string, schema: JsonSchema, target: EditTarget): Promise<string> {
  const property = schemaAtName(schema, field);
  if (!property || mediaKindOfSchema(property) !== "image") throw new HttpError(400, "content.formUnreadable");
  if (!cropAllowed(property)) throw new HttpError(403, "media.crop.notAllowed");
  const pixels = (axis: (typeof CROP_AXES)[number]) => {
    const value = parsePixels(firstText(formData, cropInputName(field, axis)) ?? "");
    if (value === null) throw new HttpError(422, "mediaChecks.cropForm.notWhole");
    return value;
  };
  const coordinates: CropCoordinates = { x: pixels("x"), y: pixels("y"), width: pixels("width"), height: pixels("height") };
  const source = await fieldMedia(formData, field, "image", target);
  const { context } = target;
  const cropped = await cropImage(
    { source, coordinates, bounds: definedOnly(cropBounds(property)), userId: target.user.id, use: { documentId: target.documentId } },
    { db: context.db, storage: context.media.storage },
  );
  context.logger.info(
    { mediaId: cropped.id, originalImageVersionId: cropped.originalImageVersionId, crop: coordinates },
    "image cropped (form)",
  );
  return cropped.contentId;
}

async function thumb(formData: FormData, field: string, schema: JsonSchema, target: EditTarget): Promise<void> {
  const property = schemaAtName(schema, field);
  if (!property || mediaKindOfSchema(property) !== "video") throw new HttpError(400, "content.formUnreadable");
  const chosen = firstText(formData, thumbInputName(field)) ?? "";
  const index = parsePixels(chosen);
  const choice: Thumb | null = chosen === CUSTOM_THUMB_VALUE ? { isCustom: true } : index === null ? null : { index };
  if (!choice) throw new HttpError(422, "mediaChecks.thumbForm.noChoice");
  const media = await fieldMedia(formData, field, "video", target);
  await selectThumb(target.context.db, media, await jobsOf(target.context.db, media.id), choice);
}

/**
 * The no-JavaScript crop or thumbnail button of a media field (core/media/form-edit.ts): applies it to the
 * field's media (the same checks as POST …/crop/{id} and PUT …/thumb: the field's crop bounds from the
 * bucket's schema) and turns the post into Conform's update intent of that field, so the page re-renders
 * with the form's input kept and, when refused, the message under the field. The fallbacks' inputs are
 * taken out of the post either way (they are no document data). Null: no such button was pressed.
 */
export async function applyMediaEdit(formData: FormData, schema: JsonSchema, target: EditTarget): Promise<MediaEdit | null> {
  const cropField = firstText(formData, MEDIA_CROP_FIELD);
  const thumbField = firstText(formData, MEDIA_THUMB_FIELD);
  const fallbackInputs = [...new Set(formData.keys())].filter((name) => name.startsWith(MEDIA_EDIT_PREFIX));
  const snapshot = new Map(fallbackInputs.map((name) => [name, formData.getAll(name)]));
  for (const name of [MEDIA_CROP_FIELD, MEDIA_THUMB_FIELD, ...fallbackInputs]) formData.delete(name);
  const field = cropField ?? thumbField;
  if (field === undefined || formData.has(INTENT_FIELD)) return null;

  const read = new FormData();
  for (const [name, values] of snapshot) for (const value of values) read.append(name, value);
  read.set(field, firstText(formData, field) ?? "");
  const errors: string[] = [];
  try {
    if (cropField !== undefined) formData.set(field, await crop(read, field, schema, target));
    else await thumb(read, field, schema, target);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    errors.push(errorText(error, target.locale));
  }
  formData.set(INTENT_FIELD, JSON.stringify({ type: "update", payload: { name: field, validated: errors.length > 0 } }));
  return { field, errors };
}
