import { data, redirect, type AppLoadContext } from "react-router";
import { errorText, HttpError } from "@server/errors";
import { deleteMediaItems, describeMediaItem, type LibraryItemDetail } from "@server/media/library-item";
import { replaceMediaFile, uploadToLibrary } from "@server/media/library-upload";
import { receiveUpload } from "@server/media/upload";
import { incomingBody, isMultipart } from "@server/web/form-post";
import { formText, readForm } from "@server/web/read-form";
import { mediaBounds } from "@core/media/bounds";
import { inWords, type LibraryRequest } from "./media.server";
import { chooseForPick, openPick } from "@server/media/library-pick";
import { LIBRARY_PICK_PARAM } from "@core/media/library";
import { isUuid } from "@core/ids";

/*
 * The posts of the media library's two pages (docs/media.md). Each page takes a multipart post (files: an upload to
 * the library, a new file for an item; their route handles say streamsBody) and a plain form post (a delete, texts).
 */

/** /media: several files into the library (multipart), or the selected items deleted. */
export async function libraryAction(request: Request, context: AppLoadContext, library: LibraryRequest) {
  const { user, locale, buckets } = library;
  if (isMultipart(request)) {
    try {
      const { bucket, results } = await uploadToLibrary(incomingBody(request), buckets, user.id, { db: context.db, media: context.media });
      const uploaded = results.map((result) =>
        "contentId" in result
          ? { filename: result.filename, contentId: result.contentId, errors: [] }
          : { filename: result.filename, contentId: null, errors: inWords(locale, result.errors) },
      );
      return data({ intent: "upload" as const, bucket: bucket.slug, uploaded, refusal: null, deleted: 0, refused: [] });
    } catch (error) {
      // The whole upload refused (no bucket, no file, too many files, an unreadable body): the form again, with why.
      if (!(error instanceof HttpError)) throw error;
      const refusal = errorText(error, locale);
      return data({ intent: "upload" as const, bucket: null, uploaded: [], refusal, deleted: 0, refused: [] }, { status: error.status });
    }
  }
  const form = await readForm(request);
  if (formText(form, "intent") === "pick") return pickAction(context, library, form);
  const ids = form.getAll("item").filter((value): value is string => typeof value === "string");
  const refusal = ids.length ? null : "library.nothingSelected";
  if (!ids.length)
    return data({ intent: "delete" as const, bucket: null, uploaded: [], refusal, deleted: 0, refused: [] }, { status: 400 });
  const { deleted, refused } = await deleteMediaItems(context.db, buckets, ids, locale);
  const status = refused.length ? 409 : 200;
  return data({ intent: "delete" as const, bucket: null, uploaded: [], refusal, deleted: deleted.length, refused }, { status });
}

/** /media/{id}: a new file (multipart), the item deleted, or its texts saved. */
export async function itemAction(request: Request, context: AppLoadContext, library: LibraryRequest, item: LibraryItemDetail) {
  const { user, locale, buckets } = library;
  const answer = { refused: [], errors: {}, saved: false, input: null, broken: [], refusal: null };
  if (isMultipart(request)) {
    try {
      const upload = await receiveUpload(incomingBody(request), context.media.storage, () => mediaBounds(item.kind, {}).maxBytes);
      const target = { contentId: item.contentId, kind: item.kind, bucketId: item.bucketId };
      const { broken } = await replaceMediaFile(target, upload.file, user.id, { db: context.db, media: context.media });
      if (!broken.length) throw redirect(`/media/${item.contentId}?notice=replaced`);
      const uses = broken.map((use) => ({ title: use.title, field: use.field, errors: inWords(locale, use.errors) }));
      return data({ ...answer, intent: "replace" as const, broken: uses }, { status: 422 });
    } catch (error) {
      // The file itself refused (its type, its size, unreadable): the page again, with why.
      if (!(error instanceof HttpError)) throw error;
      return data({ ...answer, intent: "replace" as const, refusal: errorText(error, locale) }, { status: error.status });
    }
  }
  const form = await readForm(request);
  if (formText(form, "intent") === "delete") {
    const { refused } = await deleteMediaItems(context.db, buckets, [item.contentId], locale);
    if (refused.length) return data({ ...answer, intent: "delete" as const, refused }, { status: 409 });
    throw redirect("/media?deleted=1");
  }
  const texts = (field: string) => Object.fromEntries(item.locales.map((code) => [code, formText(form, `${field}.${code}`)]));
  const input = { alt: texts("alt"), caption: texts("caption"), credits: formText(form, "credits") };
  const errors = await describeMediaItem(context.db, buckets, item.contentId, input);
  const failed = Object.keys(errors).length > 0;
  return data({ ...answer, intent: "describe" as const, errors, saved: !failed, input }, { status: failed ? 422 : 200 });
}

/** /media?pick=…: an item chosen for the form's field: back to the form with it, or why it cannot be chosen. */
async function pickAction(context: AppLoadContext, { user, locale }: LibraryRequest, form: FormData) {
  const pick = await openPick(context.db, user, formText(form, LIBRARY_PICK_PARAM));
  if (!pick) throw new HttpError(404, "library.pick.gone");
  const contentId = formText(form, "item");
  const chosen = await chooseForPick(context.db, pick, user, isUuid(contentId) ? contentId : "", locale);
  if ("returnTo" in chosen) throw redirect(chosen.returnTo);
  return data({ choice: contentId, errors: chosen.errors }, { status: 422 });
}
