import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Locale } from "@core/locales";
import { SchemaField } from "~/components/form/schema-field";
import { MediaFormContext } from "~/components/form/media/context";
import { BucketFormModalSpecimen, ConfirmDialogSpecimen, IEWarningSpecimen } from "./dialog-specimens";
import { FieldKindSection, kindAnchor } from "./field-kind-section";
import type { FieldSpecimen } from "./field-specimen";
import { FIXTURE_MEDIA_SOURCE, MEDIA_FIXTURES } from "./media-fixtures";
import { MediaStates } from "./media-states";
import {
  ButtonSpecimens,
  ErrorPageSpecimens,
  FormErrorSpecimens,
  LoadingBarSpecimen,
  NoticeSpecimens,
  TopBarSpecimen,
} from "./ui-specimens";

const SECTIONS = ["fieldKinds", "mediaStates", "buttons", "notices", "formErrors", "dialogs", "loadingBar", "errorPage", "topBar"] as const;
type SectionId = (typeof SECTIONS)[number];

const MEDIA_SETTINGS = { bucketSlug: null, contents: MEDIA_FIXTURES, videoProcessing: true, source: FIXTURE_MEDIA_SOURCE };

/** The living style guide: every field kind in every state and the shared UI pieces, built from the real components. */
export function StyleGuidePage({ fields, locale }: { fields: FieldSpecimen[]; locale: Locale }) {
  const { t } = useTranslation();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const section = (id: SectionId, children: ReactNode, intro?: string) => (
    <section id={id} className="style-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t(`styleGuide.sections.${id}`)}</h2>
      {intro ? <p className="style-intro">{intro}</p> : null}
      {children}
    </section>
  );
  return (
    <div className="style-guide" data-style-guide>
      <nav className="style-toc" aria-labelledby="style-toc-title">
        <h2 id="style-toc-title" className="style-toc-title">
          {t("styleGuide.contents")}
        </h2>
        <ol>
          {SECTIONS.map((id) => (
            <li key={id}>
              <a href={`#${id}`}>{t(`styleGuide.sections.${id}`)}</a>
              {id === "fieldKinds" ? (
                <ol className="style-toc-kinds">
                  {fields.map(({ kind }) => (
                    <li key={kind}>
                      <a href={`#${kindAnchor(kind)}`}>{t(`styleGuide.kinds.${kind}`)}</a>
                    </li>
                  ))}
                </ol>
              ) : null}
            </li>
          ))}
        </ol>
      </nav>
      <div className="style-content">
        <h1>{t("styleGuide.title")}</h1>
        <p className="style-intro">{t("styleGuide.intro")}</p>
        <MediaFormContext.Provider value={MEDIA_SETTINGS}>
          {section(
            "fieldKinds",
            <>
              {fields.map((specimen) => (
                <FieldKindSection key={`${specimen.kind}-${locale}`} specimen={specimen} hydrated={hydrated} />
              ))}
              <div className="style-kind" data-kind="unknown">
                <h3>{t("styleGuide.unknownKind")}</h3>
                <SchemaField name="mystery" schema={{ type: "null" }} required={false} />
              </div>
            </>,
            t("styleGuide.fieldKindsIntro"),
          )}
          {section("mediaStates", <MediaStates key={locale} hydrated={hydrated} />, t("styleGuide.mediaStatesIntro"))}
        </MediaFormContext.Provider>
        {section("buttons", <ButtonSpecimens />)}
        {section("notices", <NoticeSpecimens />)}
        {section("formErrors", <FormErrorSpecimens />)}
        {section(
          "dialogs",
          <>
            <ConfirmDialogSpecimen />
            <BucketFormModalSpecimen hydrated={hydrated} locale={locale} />
            <IEWarningSpecimen />
          </>,
        )}
        {section("loadingBar", <LoadingBarSpecimen />)}
        {section("errorPage", <ErrorPageSpecimens />)}
        {section("topBar", <TopBarSpecimen />)}
      </div>
    </div>
  );
}
