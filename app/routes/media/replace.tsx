import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import type { RouteHandle } from "@core/route-handle";
import { findLibraryItem } from "@server/media/library-item";
import { replaceMediaFile, type BrokenUse } from "@server/media/library-upload";
import { errorText, HttpError } from "@server/errors";
import { receiveUpload } from "@server/media/upload";
import { incomingBody } from "@server/web/form-post";
import { pageRoute } from "@server/web/respond";
import { mediaBounds } from "@core/media/bounds";
import { inWords, requireLibrary } from "./media.server";
import type { Route } from "./+types/replace";
import { pageTitle } from "~/lib/page-title";
import "~/styles/media-library.css";

export const handle = { messages: ["pages", "media"], streamsBody: true } satisfies RouteHandle;

/*
 * POST /media/{contentId}/replace (docs/media.md): a new file for a library item, multipart with one `file`. Taken, it
 * is the item's newest version and the item's page says so; refused because it does not fit where the item is used,
 * this page names each use and the field's messages, with the form to try another file.
 */

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { locale, buckets } = await requireLibrary(request, context);
  const item = await findLibraryItem(context.db, buckets, params.contentId, locale);
  return { item: { contentId: item.contentId, name: item.name, kind: item.kind } };
});

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const { user, locale, buckets } = await requireLibrary(request, context);
  const item = await findLibraryItem(context.db, buckets, params.contentId, locale);
  const shown = { contentId: item.contentId, name: item.name, kind: item.kind };
  let broken: BrokenUse[];
  try {
    const upload = await receiveUpload(incomingBody(request), context.media.storage, () => mediaBounds(item.kind, {}).maxBytes);
    ({ broken } = await replaceMediaFile({ contentId: item.contentId, kind: item.kind, bucketId: item.bucketId }, upload.file, user.id, {
      db: context.db,
      media: context.media,
    }));
  } catch (error) {
    // The file itself refused (its type, its size, unreadable): this page again, with why.
    if (!(error instanceof HttpError)) throw error;
    return data({ item: shown, refusal: errorText(error, locale), broken: [] }, { status: error.status });
  }
  if (!broken.length) throw redirect(`/media/${item.contentId}?notice=replaced`);
  const uses = broken.map((use) => ({ title: use.title, field: use.field, errors: inWords(locale, use.errors) }));
  return data({ item: shown, refusal: null, broken: uses }, { status: 422 });
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.item.name);

export default function ReplaceFile({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { item } = loaderData;
  const broken = actionData?.broken ?? [];
  const refusal = actionData?.refusal ?? null;
  return (
    <section className="media-item">
      <p>
        <Link to={`/media/${item.contentId}`}>{item.name}</Link>
      </p>
      <h1>{t("library.item.replace")}</h1>
      <p className="muted">{t("library.item.replaceHint")}</p>
      {actionData ? (
        <div className="notice-warning" role="alert">
          <p>{refusal ?? t("library.item.replaceRefused")}</p>
          <ul>
            {broken.map((use, index) => (
              <li key={index}>
                {t("library.item.brokenUse", { title: use.title || t("overview.untitled"), field: use.field })}
                <ul>
                  {use.errors.map((error) => (
                    <li key={error}>{error}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="media-replace">
        <label htmlFor="media-replace-file">{t("library.item.replace")}</label>
        <input id="media-replace-file" type="file" name="file" required accept={item.kind === "file" ? undefined : `${item.kind}/*`} />
        <button type="submit" className="button">
          {t("library.item.replaceSubmit")}
        </button>
      </Form>
    </section>
  );
}
