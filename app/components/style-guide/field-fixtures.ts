import type { ReferenceCollection } from "@core/content/references";
import type { ClipCardData } from "@core/content/cases";
import type { FieldKind } from "@core/form/field-kind";
import type { JsonSchema } from "@core/schema/normalize";
import { MEDIA_FIXTURE_IDS } from "./media-fixture-ids";

/* One entry per field kind: the style guide's sample of it. A kind without an entry does not compile. */

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface FieldFixture {
  /** The property as a bucket's jsonSchema writes it (before normalisation); the form names it after its kind. */
  property: JsonSchema;
  required?: boolean;
  /** The value of the filled, disabled and read-only states. */
  filled: unknown;
  /** A value the schema refuses: the error state shows the validator's message for it. */
  invalid: unknown;
  /** Properties the field reads beside it (an enum's $data list), with their values, shown before it. */
  companions?: Record<string, { property: JsonSchema; value: unknown }>;
}

/** The locales of the style guide's samples (a bucket's locales). */
export const FIXTURE_LOCALES = ["en", "nl"] as const;

/** The collection that reference, reference-list and popup samples point at. */
export const FIXTURE_COLLECTION = "artists";

export const FIXTURE_REFERENCE_OPTIONS: Record<string, ReferenceCollection> = {
  [FIXTURE_COLLECTION]: {
    slug: FIXTURE_COLLECTION,
    options: [
      { value: "artist-mesdag", label: "Hendrik Willem Mesdag" },
      { value: "artist-toorop", label: "Charley Toorop" },
      { value: "artist-israels", label: "Jozef Israëls" },
    ],
  },
};

/** The cases and trends the video-cases and trend-select samples show (no stills: the cards say so). */
export const FIXTURE_CASES_COLLECTION = "cases";
export const FIXTURE_TRENDS_COLLECTION = "trends";
export const FIXTURE_CLIP_CARDS: ClipCardData = {
  cases: {
    [FIXTURE_CASES_COLLECTION]: {
      slug: FIXTURE_CASES_COLLECTION,
      cards: [
        {
          contentId: "case-harbour",
          _id: "case-harbour-v1",
          title: "Harbour at dawn",
          subtitle: "Harlingen, 1904",
          still: null,
          thumbnailId: null,
          processing: false,
          video: null,
        },
        {
          contentId: "case-glass",
          _id: "case-glass-v1",
          title: "Blowing glass",
          subtitle: "Leerdam workshop",
          still: null,
          thumbnailId: null,
          processing: true,
          video: null,
        },
      ],
    },
  },
  trends: {
    [FIXTURE_TRENDS_COLLECTION]: {
      slug: FIXTURE_TRENDS_COLLECTION,
      options: [
        { value: "trend-light", label: "Light and water", image: null },
        { value: "trend-craft", label: "Craft revival", image: null },
      ],
    },
  },
};

const sample = (t: Translate, key: string) => t(`styleGuide.sample.${key}`);

export function fieldFixtures(t: Translate): Record<FieldKind, FieldFixture> {
  const title = (kind: string) => sample(t, `${kind}Title`);
  return {
    text: {
      property: { type: "string", title: title("text"), maxLength: 30, placeholder: sample(t, "textPlaceholder") },
      required: true,
      filled: sample(t, "textValue"),
      invalid: sample(t, "textTooLong"),
    },
    textarea: {
      property: {
        type: "string",
        renderer: "textarea",
        title: title("textarea"),
        description: sample(t, "textareaDescription"),
        isNotEmpty: true,
      },
      required: true,
      filled: sample(t, "textareaValue"),
      invalid: "   ",
    },
    number: {
      property: { type: "number", title: title("number"), minimum: 0 },
      filled: 12.5,
      invalid: -3,
    },
    integer: {
      property: { type: "integer", title: title("integer"), minimum: 1600, maximum: 2100 },
      filled: 1881,
      invalid: 2400,
    },
    boolean: {
      property: { type: "boolean", title: title("boolean"), const: true, note: sample(t, "booleanNote") },
      filled: true,
      invalid: false,
    },
    date: { property: { type: "string", format: "date", title: title("date") }, required: true, filled: "2025-06-21", invalid: "" },
    time: { property: { type: "string", format: "time", title: title("time") }, required: true, filled: "09:30:00", invalid: "" },
    color: { property: { type: "string", format: "color", title: title("color") }, required: true, filled: "#2f6fde", invalid: "" },
    enum: {
      property: {
        type: "string",
        title: title("enum"),
        enum: ["oil", "watercolour", "ink"],
        labels: { oil: sample(t, "oil"), watercolour: sample(t, "watercolour"), ink: sample(t, "ink") },
      },
      required: true,
      filled: "oil",
      invalid: "",
    },
    enumData: {
      companions: {
        rooms: {
          property: { type: "array", renderer: "tags", title: sample(t, "roomsTitle"), items: { type: "string" } },
          value: [sample(t, "northWing"), sample(t, "southWing")],
        },
      },
      property: { type: "string", title: title("enumData"), enum: { $data: "1/rooms" } },
      required: true,
      filled: sample(t, "northWing"),
      invalid: "",
    },
    tags: {
      property: { type: "array", renderer: "tags", title: title("tags"), items: { type: "string" }, minItems: 2 },
      filled: ["Wadden", "Zeeland"],
      invalid: ["Wadden"],
    },
    array: {
      property: {
        type: "array",
        title: title("array"),
        items: { type: "string", title: sample(t, "stop") },
        sortable: true,
        maxItems: 3,
        "add-button": sample(t, "addStop"),
      },
      filled: ["Amsterdam", "Utrecht"],
      invalid: ["Amsterdam", "Utrecht", "Arnhem", "Zwolle"],
    },
    object: {
      property: {
        type: "object",
        title: title("object"),
        "x-clearable": true,
        required: ["author"],
        properties: { author: { type: "string", title: sample(t, "author") }, year: { type: "integer", title: title("integer") } },
      },
      filled: { author: "Hendrik Willem Mesdag", year: 1881 },
      invalid: { year: 1881 },
    },
    translateObject: {
      property: { type: "string", translate: true, title: title("translateObject") },
      required: true,
      filled: { en: "Low tide on the Wadden Sea", nl: "Eb op de Waddenzee" },
      invalid: { en: "Low tide on the Wadden Sea" },
    },
    texts: {
      property: { type: "array", renderer: "texts", title: title("texts") },
      filled: [
        { id: "welcome", text: { en: "Welcome", nl: "Welkom" } },
        { id: "exit", text: { en: "Exit", nl: "Uitgang" } },
      ],
      invalid: [{ id: "", text: { en: "Welcome", nl: "Welkom" } }],
    },
    disableable: {
      property: {
        type: "object",
        "x-disableable-bool": true,
        title: title("disableable"),
        enableButton: sample(t, "enable"),
        disableButton: sample(t, "disable"),
        required: ["value"],
        properties: { value: { type: "string" }, disabled: { type: "boolean" } },
      },
      filled: { value: sample(t, "disableableValue"), disabled: false },
      invalid: { value: "", disabled: false },
    },
    reference: {
      property: { type: "string", title: title("reference"), _ref: FIXTURE_COLLECTION },
      required: true,
      filled: "artist-mesdag",
      invalid: "",
    },
    referenceList: {
      property: { type: "array", title: title("referenceList"), items: { type: "string", _ref: FIXTURE_COLLECTION }, minItems: 2 },
      filled: ["artist-mesdag", "artist-toorop"],
      invalid: ["artist-israels"],
    },
    popup: {
      property: { type: "string", title: title("popup"), renderer: "popup", _ref: FIXTURE_COLLECTION },
      required: true,
      filled: "artist-toorop",
      invalid: "",
    },
    // Outside an edit page there is no referenced bucket to render: the sample shows the reference it falls back to.
    inline: {
      property: { type: "string", title: title("inline"), renderer: "inline", _ref: FIXTURE_COLLECTION },
      required: true,
      filled: "artist-toorop",
      invalid: "",
    },
    image: {
      property: { type: "string", title: title("image"), _ref: "b-image", minWidth: 1280, enableCrop: true },
      required: true,
      filled: MEDIA_FIXTURE_IDS.image,
      invalid: "",
    },
    video: {
      property: { type: "string", title: title("video"), _ref: "b-video" },
      required: true,
      filled: MEDIA_FIXTURE_IDS.video,
      invalid: "",
    },
    file: {
      property: { type: "string", title: title("file"), _ref: "b-file" },
      required: true,
      filled: MEDIA_FIXTURE_IDS.file,
      invalid: "",
    },
    videoCases: {
      property: {
        type: "array",
        title: title("videoCases"),
        renderer: "video-cases",
        items: { type: "string", _ref: FIXTURE_CASES_COLLECTION },
        maxItems: 2,
      },
      filled: ["case-harbour", "case-glass"],
      invalid: ["case-harbour", "case-glass", "case-harbour"],
    },
    trendSelect: {
      property: { type: "string", title: title("trendSelect"), renderer: "trend-select", _ref: FIXTURE_TRENDS_COLLECTION },
      required: true,
      filled: "trend-light",
      invalid: "",
    },
    trendList: {
      property: {
        type: "array",
        title: t("trendScreen.styleGuide.relatedTitle"),
        renderer: "trend-select",
        items: { type: "string", _ref: FIXTURE_TRENDS_COLLECTION },
        maxItems: 1,
      },
      filled: ["trend-craft"],
      invalid: ["trend-light", "trend-craft"],
    },
  };
}
