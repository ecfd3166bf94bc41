import type { RouteHandle } from "@core/route-handle";
import { StyleGuidePage } from "~/components/style-guide/style-guide-page";
import { fieldSpecimens } from "~/components/style-guide/field-specimens.server";
import { translate } from "@core/messages";
import { compileBucketSchema } from "@server/content/validator";
import { requireUser } from "@server/web/guards";
import { getRequestState } from "@server/web/request-state";
import type { Route } from "./+types/style";
import { pageTitle } from "~/lib/page-title";

/** Its messages are in the catalogue's admin part (core/catalogue-parts.ts). */
export const handle = { messages: ["admin", "media", "pages"] } satisfies RouteHandle;

/** The living style guide (/style): every field kind in every state and the shared UI pieces, in the user's language. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  const { locale } = await getRequestState(request, context);
  return { locale, fields: fieldSpecimens(locale, compileBucketSchema) };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, translate(loaderData.locale, "styleGuide.title"));

export default function StyleGuide({ loaderData }: Route.ComponentProps) {
  return <StyleGuidePage fields={loaderData.fields} locale={loaderData.locale} />;
}
