import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { fieldKind, type FieldKind } from "@core/form/field-kind";
import type { JsonSchema } from "@core/schema/normalize";
import type { BucketEditData } from "~/routes/bucket-edit/edit.server";
import type { EditScreenParts } from "~/routes/bucket-edit/page";
import type { TrendScreenData } from "../trend.server";
import "~/styles/trend-screen.css";

type TrendEditData = BucketEditData & { screenData: TrendScreenData };

/** The main column, in this order: the trend's pictures, its translated texts, its related trends. */
const MAIN_GROUPS: ReadonlyArray<readonly FieldKind[]> = [["image"], ["translateObject", "texts"], ["trendList", "trendSelect"]];

function trendMainFields(data: TrendEditData): string[] {
  const properties = Object.entries((data.schema.properties ?? {}) as Record<string, JsonSchema>);
  return MAIN_GROUPS.flatMap((kinds) =>
    properties.filter(([, property]) => kinds.includes(fieldKind(property) as FieldKind)).map(([name]) => name),
  );
}

/** Beside the fields: the sessions and documents that use this trend, linked on their own screens. */
function TrendWhereUsed({ loaderData }: { loaderData: TrendEditData }) {
  const { t } = useTranslation();
  const { whereUsed } = loaderData.screenData;
  const total = whereUsed ? whereUsed.referrers.length + whereUsed.more + whereUsed.hidden : 0;
  return (
    <section className="trend-used" aria-labelledby="trend-used-title">
      <h2 id="trend-used-title">{t("trendScreen.aside.title")}</h2>
      {!whereUsed ? (
        <p className="muted">{t("trendScreen.aside.unsaved")}</p>
      ) : total === 0 ? (
        <p className="muted trend-used-none">{t("trendScreen.aside.none")}</p>
      ) : (
        <>
          <p>{t("trendScreen.aside.count", { count: total })}</p>
          {whereUsed.referrers.length ? (
            <ul className="trend-used-list">
              {whereUsed.referrers.map((referrer) => (
                <li key={referrer.contentId}>
                  <Link to={referrer.path}>{referrer.title || t("overview.untitled")}</Link>
                  <span className="muted">{referrer.bucketName}</span>
                </li>
              ))}
            </ul>
          ) : null}
          {whereUsed.more ? <p className="muted">{t("trendScreen.aside.more", { count: whereUsed.more })}</p> : null}
          {whereUsed.hidden ? (
            <p className="muted trend-used-hidden">{t("trendScreen.aside.hidden", { count: whereUsed.hidden })}</p>
          ) : null}
        </>
      )}
    </section>
  );
}

/** The trend screen (docs/screens.md): the generic edit page with the image and texts first, where-used beside. */
export const TREND_SCREEN: EditScreenParts<TrendEditData> = {
  className: "trend-screen",
  mainFields: trendMainFields,
  Aside: TrendWhereUsed,
};
