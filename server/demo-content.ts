import type { Bucket } from "./content/buckets";

/*
 * The demo content a first start seeds (server/seed.ts): buckets for each field kind and screen, and their documents,
 * saved through the front door like any other.
 */
/* eslint-disable max-lines -- Over 300 lines on purpose: it is data, a museum's worth of examples. */

/** What a demo bucket's documents may use: the contentIds of buckets seeded before, and media made now. */
export interface DemoSeeding {
  /** The contentIds of a bucket's documents, in their order (buckets with fixed documents are seeded first). */
  ids(slug: string): string[];
  /** The contentIds this bucket's first `count` documents will get, so that they may name each other. */
  ownIds(count: number): string[];
  /** A 960×600 image in this bucket (server/demo-media.ts). */
  image(image: { name: string; from: string; to: string }): Promise<string | null>;
  /** A short test video in this bucket with its jobs; null without ffmpeg. */
  video(video: { name: string; source: string }): Promise<string | null>;
}

interface DemoBucket {
  bucket: Omit<Bucket, "id" | "schemaVersionId">;
  /** Fixed documents, or documents that refer to others or hold media (made after every fixed one, in list order). */
  documents: Record<string, unknown>[] | ((seeding: DemoSeeding) => Promise<Record<string, unknown>[]>);
}

/** A public demo bucket in Dutch and English whose collection is named after its slug; `dutch` is its name in the Dutch interface. */
function demoBucket(
  slug: string,
  name: string,
  dutch: string,
  rest: Pick<Bucket, "singleton" | "jsonSchema"> & Partial<Pick<Bucket, "screen">>,
): Omit<Bucket, "id" | "schemaVersionId"> {
  return { slug, name, names: { nl: dutch }, private: false, collectionName: slug, locales: ["nl", "en"], screen: "generic", ...rest };
}

/** Demo exhibit content: what a museum team would put in on day one. */
export const DEMO_BUCKETS: DemoBucket[] = [
  {
    bucket: demoBucket("exhibitions", "Exhibitions", "Tentoonstellingen", {
      singleton: false,
      jsonSchema: {
        type: "object",
        required: ["title", "opensOn"],
        properties: {
          title: { type: "string", title: "Title", translate: true, maxLength: 80 },
          subtitle: { type: "string", title: "Subtitle", translate: true },
          opensOn: { type: "string", format: "date", title: "Opens on" },
          closesOn: { type: "string", format: "date", title: "Closes on" },
          room: { type: "string", title: "Room", _ref: "rooms", renderer: "inline" },
          ticketPrice: { type: "number", title: "Ticket price (€)", minimum: 0 },
          featured: { type: "boolean", title: "Featured on the entrance screen" },
          artworks: { type: "array", title: "Artworks", items: { type: "string", _ref: "artworks" } },
          artist: { type: "string", title: "Artist", _ref: "artists", renderer: "popup" },
          curator: { type: "string", title: "Guest curator", _ref: "artists", renderer: "popup" },
          rooms: {
            type: "array",
            title: "Rooms",
            sortable: true,
            "add-button": "Add room",
            "title-key": "name",
            maxItems: 6,
            items: {
              type: "object",
              title: "Room",
              required: ["name"],
              properties: {
                name: { type: "string", title: "Name", isNotEmpty: true },
                capacity: { type: "integer", title: "Capacity", minimum: 1, step: 5 },
              },
            },
          },
          highlightRoom: { type: "string", title: "Highlight room", enum: { _data: "1/roomNames" } },
          roomNames: { type: "array", title: "Room names (for the highlight)", items: { type: "string" }, renderer: "tags" },
          screenTexts: { type: "array", title: "Screen texts", renderer: "texts" },
          banner: {
            type: "object",
            title: "Banner",
            "x-disableable-bool": true,
            enableButton: "Show banner",
            disableButton: "Hide banner",
          },
          contact: {
            type: "object",
            title: "Contact",
            "x-indent": true,
            "x-clearable": true,
            "x-collapsible": true,
            properties: {
              email: { type: "string", title: "Email", format: "email" },
              phone: { type: "string", title: "Phone" },
            },
          },
          accent: { type: "string", title: "Accent colour", format: "color" },
          poster: { type: "string", title: "Poster", _ref: "b-image", enableCrop: true, minWidthCrop: 800 },
          trailer: { type: "string", title: "Trailer", _ref: "b-video", allowCustomStill: true, maxFps: 60 },
          pressKit: { type: "string", title: "Press kit", _ref: "b-file" },
        },
      },
    }),
    documents: (seeding) => {
      const [wadden, vase, harbour] = seeding.ids("artworks");
      const [mesdag, copier] = seeding.ids("artists");
      const [eastWing, atrium] = seeding.ids("rooms");
      return Promise.resolve([
        {
          title: { nl: "Licht op het Noorden", en: "Light on the North" },
          subtitle: { nl: "Schilders van de Waddenkust", en: "Painters of the Wadden coast" },
          opensOn: "2026-09-12",
          closesOn: "2027-01-10",
          room: eastWing,
          artworks: [wadden, harbour],
          artist: mesdag,
          ticketPrice: 14.5,
          featured: true,
        },
        {
          title: { nl: "Glas en Vuur", en: "Glass and Fire" },
          subtitle: { nl: "Een eeuw Leerdams glas", en: "A century of Leerdam glass" },
          opensOn: "2027-02-01",
          room: atrium,
          artworks: [vase],
          artist: copier,
          ticketPrice: 12,
          featured: false,
        },
      ]);
    },
  },
  {
    bucket: demoBucket("artworks", "Artworks", "Kunstwerken", {
      singleton: false,
      jsonSchema: {
        type: "object",
        required: ["title", "year"],
        properties: {
          title: { type: "string", title: "Title", translate: true },
          year: { type: "integer", title: "Year", minimum: 1000, maximum: 2100 },
          medium: { type: "string", title: "Medium", enum: ["Oil on canvas", "Watercolour", "Glass", "Bronze", "Photograph"] },
          description: { type: "string", title: "Label text", translate: true, maxLength: 400, renderer: "textarea" },
          tags: { type: "array", title: "Tags", items: { type: "string" }, renderer: "tags" },
          photo: { type: "string", title: "Photo", _ref: "b-image", enableCrop: true },
          audioGuide: { type: "string", title: "Audio guide", _ref: "b-file", allowedFiles: ["wav", "mp3"], maxFilesize: 52428800 },
        },
      },
    }),
    documents: [
      { title: { nl: "Wad bij eb", en: "Mudflats at low tide" }, year: 1911, medium: "Oil on canvas", tags: ["landscape"] },
      { title: { nl: "Blauwe vaas", en: "Blue vase" }, year: 1928, medium: "Glass", tags: ["design", "glass"] },
      { title: { nl: "Haven van Harlingen", en: "Harlingen harbour" }, year: 1904, medium: "Watercolour", tags: ["harbour"] },
    ],
  },
  {
    bucket: demoBucket("artists", "Artists", "Kunstenaars", {
      singleton: false,
      jsonSchema: {
        type: "object",
        required: ["name"],
        properties: {
          name: { type: "string", title: "Name" },
          born: { type: "string", format: "date", title: "Born" },
          biography: { type: "string", title: "Biography", translate: true },
          colour: { type: "string", title: "Accent colour", format: "color" },
        },
      },
    }),
    documents: [
      {
        name: "Hendrik Willem Mesdag",
        born: "1831-02-23",
        biography: { nl: "Zeeschilder uit Groningen.", en: "Marine painter from Groningen." },
        colour: "#2f5d8a",
      },
      {
        name: "Andries Copier",
        born: "1901-01-11",
        biography: { nl: "Glasontwerper in Leerdam.", en: "Glass designer in Leerdam." },
        colour: "#3d7f6e",
      },
    ],
  },
  {
    bucket: demoBucket("rooms", "Rooms", "Zalen", {
      singleton: false,
      jsonSchema: {
        type: "object",
        required: ["name"],
        properties: {
          name: { type: "string", title: "Name", isNotEmpty: true },
          floor: { type: "integer", title: "Floor", minimum: -2, maximum: 10 },
          capacity: { type: "integer", title: "Capacity", minimum: 1, step: 5 },
        },
      },
    }),
    documents: [
      { name: "East wing", floor: 0, capacity: 120 },
      { name: "Atrium", floor: 0, capacity: 300 },
      { name: "Garden room", floor: 1, capacity: 40 },
    ],
  },
  {
    bucket: demoBucket("trends", "Trends", "Trends", {
      singleton: false,
      screen: "trend",
      jsonSchema: {
        type: "object",
        required: ["title"],
        properties: {
          title: { type: "string", title: "Title", translate: true, maxLength: 60 },
          summary: { type: "string", title: "Summary", renderer: "textarea", translate: true, maxLength: 300 },
          image: { type: "string", title: "Image", _ref: "b-image", minWidth: 640, minHeight: 400, enableCrop: true },
          related: {
            type: "array",
            title: "Related trends",
            renderer: "trend-select",
            maxItems: 4,
            uniqueItems: true,
            items: { type: "string", _ref: "trends" },
          },
          colour: { type: "string", title: "Colour on the exhibit screens", format: "color" },
        },
      },
    }),
    documents: async (seeding) => {
      const [light, craft, green, slow] = seeding.ownIds(4);
      const trends = [
        {
          title: { nl: "Licht en water", en: "Light and water" },
          summary: { nl: "Kustlijnen, weerspiegelingen en het noordelijke licht.", en: "Coastlines, reflections and the northern light." },
          related: [green, slow],
          from: "#1f4e79",
          to: "#8ec5e8",
        },
        {
          title: { nl: "Herwaardering van ambacht", en: "Craft revival" },
          summary: { nl: "Makers keren terug naar glas, klei en hout.", en: "Makers return to glass, clay and wood." },
          related: [slow],
          from: "#7a3b12",
          to: "#f0b35e",
        },
        {
          title: { nl: "Groene steden", en: "Green cities" },
          summary: { nl: "Parken, daken en rivieren in de stad.", en: "Parks, roofs and rivers in the city." },
          related: [light],
          from: "#1d5c3a",
          to: "#b9e0a5",
        },
        {
          title: { nl: "Langzaam kijken", en: "Slow looking" },
          summary: { nl: "Eén werk, tien minuten: bezoekers nemen de tijd.", en: "One work, ten minutes: visitors take their time." },
          related: [craft, light],
          from: "#4a3b6b",
          to: "#d8c8f0",
        },
      ];
      const images = await Promise.all(
        trends.map((trend) => seeding.image({ name: trend.title.en.toLowerCase().replaceAll(" ", "-"), from: trend.from, to: trend.to })),
      );
      return trends.map(({ from, to: _to, ...trend }, index) => ({
        ...trend,
        colour: from,
        ...(images[index] ? { image: images[index] } : {}),
      }));
    },
  },
  {
    bucket: demoBucket("cases", "Video cases", "Videocasussen", {
      singleton: false,
      jsonSchema: {
        type: "object",
        required: ["title"],
        properties: {
          title: { type: "string", title: "Title", maxLength: 60 },
          subtitle: { type: "string", title: "Subtitle", maxLength: 80 },
          thumbnail: { type: "string", title: "Video", _ref: "b-video", minWidth: 640, minHeight: 360 },
        },
      },
    }),
    documents: async (seeding) => {
      const cases = [
        { title: "Harbour at dawn", subtitle: "Harlingen, filmed from the quay", source: "testsrc2" },
        { title: "Blowing glass", subtitle: "An afternoon in the Leerdam workshop", source: "smptehdbars" },
        { title: "Tide coming in", subtitle: "The mudflats in time-lapse", source: "testsrc" },
        { title: "Restoring a canvas", subtitle: "Conservators at work", source: "rgbtestsrc" },
      ];
      const videos = await Promise.all(
        cases.map((item) => seeding.video({ name: item.title.toLowerCase().replaceAll(" ", "-"), source: item.source })),
      );
      return cases.map((item, index) => ({
        title: item.title,
        subtitle: item.subtitle,
        ...(videos[index] ? { thumbnail: videos[index] } : {}),
      }));
    },
  },
  {
    bucket: demoBucket("sessions", "Sessions", "Sessies", {
      singleton: false,
      screen: "sessies",
      jsonSchema: {
        type: "object",
        required: ["title"],
        properties: {
          title: { type: "string", title: "Title", translate: true },
          date: { type: "string", format: "date", title: "Date" },
          trend: { type: "string", title: "Trend", _ref: "trends", renderer: "trend-select" },
          cases: { type: "array", title: "Video cases", renderer: "video-cases", maxItems: 8, items: { type: "string", _ref: "cases" } },
          exhibition: { type: "string", title: "Exhibition", _ref: "exhibitions" },
        },
      },
    }),
    documents: (seeding) => {
      const [harbour, glass, tide] = seeding.ids("cases");
      const [light, craft] = seeding.ids("trends");
      const [north, glassAndFire] = seeding.ids("exhibitions");
      return Promise.resolve([
        {
          title: { nl: "Ochtend aan de kust", en: "Morning on the coast" },
          date: "2026-10-03",
          trend: light,
          cases: [harbour, tide],
          exhibition: north,
        },
        { title: { nl: "Handwerk", en: "Handmade" }, date: "2026-11-14", trend: craft, cases: [glass], exhibition: glassAndFire },
      ]);
    },
  },
  {
    bucket: demoBucket("dle-sessions", "Learning sessions", "Leersessies", {
      singleton: false,
      screen: "dle-sessies",
      jsonSchema: {
        type: "object",
        required: ["title"],
        properties: {
          title: { type: "string", title: "Title", translate: true },
          goal: { type: "string", title: "Learning goal", renderer: "textarea", translate: true, maxLength: 400 },
          cases: { type: "array", title: "Video cases", renderer: "video-cases", maxItems: 8, items: { type: "string", _ref: "cases" } },
          availableFrom: { type: "string", format: "date", title: "Available from" },
          availableUntil: { type: "string", format: "date", title: "Available until" },
        },
      },
    }),
    documents: (seeding) => {
      const [harbour, glass, tide, canvas] = seeding.ids("cases");
      return Promise.resolve([
        {
          title: { nl: "Kijken naar water", en: "Looking at water" },
          goal: {
            nl: "Leerlingen beschrijven hoe licht en getij een landschap veranderen.",
            en: "Pupils describe how light and tide change a landscape.",
          },
          cases: [harbour, tide],
          availableFrom: "2026-09-01",
          availableUntil: "2027-06-30",
        },
        {
          title: { nl: "Vakmanschap", en: "Craftsmanship" },
          goal: {
            nl: "Leerlingen volgen een maker van ruw materiaal tot object.",
            en: "Pupils follow a maker from raw material to object.",
          },
          cases: [glass, canvas],
          availableFrom: "2026-11-01",
        },
        {
          title: { nl: "Zorgen voor een schilderij", en: "Caring for a painting" },
          goal: { nl: "Wat doet een restaurator, en waarom?", en: "What does a conservator do, and why?" },
          cases: [canvas],
          availableFrom: "2027-01-15",
          availableUntil: "2027-03-31",
        },
      ]);
    },
  },
  {
    bucket: demoBucket("learning-environment", "Learning environment", "Leeromgeving", {
      singleton: true,
      screen: "dle-content",
      jsonSchema: {
        type: "object",
        required: ["title", "introduction"],
        properties: {
          title: { type: "string", title: "Title", translate: true, maxLength: 80 },
          introduction: { type: "string", title: "Introduction", renderer: "textarea", translate: true, maxLength: 600 },
          teacherNotes: { type: "string", title: "Notes for teachers", renderer: "textarea", translate: true },
          highlights: {
            type: "array",
            title: "Highlights",
            sortable: true,
            "append-index-to-title": true,
            maxItems: 6,
            items: { type: "string", title: "Highlight", translate: true, maxLength: 120 },
          },
          ageGroup: { type: "string", title: "Age group", enum: ["6-9", "10-12", "12-15", "15-18"] },
        },
      },
    }),
    documents: [
      {
        title: { nl: "Het museum als leslokaal", en: "The museum as a classroom" },
        introduction: {
          nl: "Drie sessies met korte films uit de collectie, voor in de klas of in de zaal.",
          en: "Three sessions with short films from the collection, for the classroom or the gallery.",
        },
        teacherNotes: { nl: "Elke sessie duurt ongeveer veertig minuten." },
        highlights: [
          { nl: "Korte films van makers uit de regio", en: "Short films by makers from the region" },
          { nl: "Vragen om samen over te praten", en: "Questions to talk about together" },
          { nl: "Werkt op het digibord en in de zaal", en: "Works on the classroom screen and in the gallery" },
        ],
        ageGroup: "10-12",
      },
    ],
  },
  {
    bucket: demoBucket("site-settings", "Site settings", "Website-instellingen", {
      singleton: true,
      jsonSchema: {
        type: "object",
        required: ["welcome"],
        properties: {
          welcome: { type: "string", title: "Welcome text", translate: true },
          openingTime: { type: "string", format: "time", title: "Opening time" },
          closingTime: { type: "string", format: "time", title: "Closing time" },
          idleTimeoutSeconds: { type: "integer", title: "Screen idle timeout (s)", minimum: 10 },
        },
      },
    }),
    documents: [
      {
        welcome: { nl: "Welkom in het museum", en: "Welcome to the museum" },
        openingTime: "10:00:00",
        closingTime: "17:00:00",
        idleTimeoutSeconds: 90,
      },
    ],
  },
];

/**
 * The demo's one release, scheduled a week after the first start at 10:00 in the exhibits' time zone: a new artwork
 * that exhibits do not show yet (docs/publishing.md), so that the releases' screens and the scheduled state have
 * something to show.
 */
export const DEMO_RELEASE = {
  name: "Spring opening",
  bucket: "artworks",
  document: { title: { nl: "Duinen bij Schoorl", en: "Dunes near Schoorl" }, year: 1919, medium: "Oil on canvas", tags: ["landscape"] },
  daysAhead: 7,
  time: "10:00",
};
