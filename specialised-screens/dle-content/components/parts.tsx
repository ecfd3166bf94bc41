import { useFormMetadata } from "@conform-to/react";
import { mainTexts, translationStatus } from "../dle-content";
import { ContentPreview } from "./preview";
import { SessionLinks } from "./session-links";
import { TranslationStrip } from "./translation-strip";
import type { EditScreenParts } from "~/routes/bucket-edit/page";
import type { DleContentData } from "../dle-content.server";
import "~/styles/dle-content.css";

/**
 * The dle-content screen (docs/screens.md): the generic form, its main texts first, with a live preview of those
 * texts per locale and the links to the environment's sessions beside it, and the translation status above.
 * The form's value is the stored one, the posted one (re-rendered without JavaScript) or, live, the typed one.
 */
function useFormValue(loaderData: DleContentData): unknown {
  const form = useFormMetadata();
  return form.value ?? loaderData.defaultValue;
}

function Header({ loaderData }: { loaderData: DleContentData }) {
  const form = useFormMetadata();
  const value = useFormValue(loaderData);
  // Conform names a field's input `${formId}-${name}` (its getInputProps id).
  return (
    <TranslationStrip
      status={translationStatus(loaderData.schema, value, loaderData.bucket.locales)}
      fieldId={(name) => `${form.id}-${name}`}
      translationsHref={
        loaderData.contentId
          ? `/b/${encodeURIComponent(loaderData.bucket.slug)}/translations?id=${encodeURIComponent(loaderData.contentId)}`
          : null
      }
    />
  );
}

function Aside({ loaderData }: { loaderData: DleContentData }) {
  const value = useFormValue(loaderData);
  return (
    <>
      <ContentPreview texts={mainTexts(loaderData.schema)} value={value} />
      <SessionLinks buckets={loaderData.screenData.sessions} />
    </>
  );
}

export const DLE_CONTENT_SCREEN: EditScreenParts<DleContentData> = {
  className: "dle-content-screen",
  mainFields: (data) => mainTexts(data.schema).map((text) => text.name),
  Header,
  Aside,
};
