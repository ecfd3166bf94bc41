import { useTranslation } from "react-i18next";
import { MAX_IMAGE_BYTES, tooLargeMessage, type MediaKind } from "@core/media/bounds";
import { messageText } from "~/lib/i18n";
import { MediaField } from "~/components/form/media/media-field";
import type { UploadItem } from "~/components/form/media/media-status";
import { MEDIA_FIXTURE_IDS } from "./media-fixture-ids";
import { SpecimenForm } from "./specimen-form";

const MEDIA_STATES = ["empty", "verifying", "uploading", "uploadFailed", "processing", "failed", "image", "video", "file"] as const;
type MediaState = (typeof MEDIA_STATES)[number];

const FILENAME = "wadden-sea.jpg";

/** The field each state shows: its kind, its value (a fixture's contentId) and the upload in progress. */
function mediaSample(state: MediaState, tooLarge: string): { kind: MediaKind; value: string; upload?: UploadItem } {
  switch (state) {
    case "empty":
      return { kind: "image", value: "" };
    case "verifying":
      return { kind: "image", value: "", upload: { state: "new", filename: FILENAME } };
    case "uploading":
      return { kind: "image", value: "", upload: { state: "uploading", filename: FILENAME, loaded: 3_400_000, total: 8_200_000 } };
    case "uploadFailed":
      return { kind: "image", value: "", upload: { state: "error", filename: FILENAME, message: tooLarge } };
    case "processing":
      return { kind: "video", value: MEDIA_FIXTURE_IDS.processing };
    case "failed":
      return { kind: "video", value: MEDIA_FIXTURE_IDS.failed };
    default:
      return { kind: state, value: MEDIA_FIXTURE_IDS[state] };
  }
}

/** Image, video and file fields from empty through uploading and processing to done or failed. */
export function MediaStates({ hydrated }: { hydrated: boolean }) {
  const { t } = useTranslation();
  const samples = MEDIA_STATES.map((state) => ({ state, ...mediaSample(state, messageText(t, tooLargeMessage(MAX_IMAGE_BYTES))) }));
  return (
    <SpecimenForm
      id="style-media-states"
      schema={{}}
      defaultValue={Object.fromEntries(samples.map(({ state, value }) => [state, value]))}
      hydrated={hydrated}
    >
      <div className="style-states style-media-states">
        {samples.map(({ state, kind, upload }) => (
          <div key={state} className="style-state" data-media-state={state}>
            <MediaField
              name={state}
              kind={kind}
              schema={{ type: "string", _ref: `b-${kind}` }}
              required={false}
              label={t(`styleGuide.mediaStates.${state}`)}
              initialUpload={upload}
            />
          </div>
        ))}
      </div>
    </SpecimenForm>
  );
}
