import { useTranslation } from "react-i18next";
import { redirect } from "react-router";
import { Placeholder } from "../components/placeholder";
import { countContents } from "../../server/services/content";
import { requireBucketAccess } from "../lib/guards.server";
import type { Route } from "./+types/bucket-overview";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { bucket } = await requireBucketAccess(request, context, params.bucket);
  if (bucket.singleton) throw redirect(`/b/${bucket.slug}/edit`);
  return { name: bucket.name, count: await countContents(context.db, bucket.id) };
}

export default function BucketOverview({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <h1>{loaderData.name}</h1>
      <p>{t("bucket.documents", { count: loaderData.count })}</p>
      <Placeholder />
    </>
  );
}
