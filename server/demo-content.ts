import type { Bucket } from "./content/buckets";

interface DemoBucket {
  bucket: Omit<Bucket, "id" | "schemaVersionId">;
  documents: Record<string, unknown>[];
}

/** A public demo bucket in Dutch and English whose collection is named after its slug. */
function demoBucket(slug: string, name: string, rest: Pick<Bucket, "singleton" | "jsonSchema">): Omit<Bucket, "id" | "schemaVersionId"> {
  return { slug, name, private: false, collectionName: slug, locales: ["nl", "en"], ...rest };
}

/** Demo exhibit content: what a museum team would put in on day one. */
export const DEMO_BUCKETS: DemoBucket[] = [
  {
    bucket: demoBucket("exhibitions", "Exhibitions", { singleton: false, jsonSchema: {
        type: "object",
        required: ["title", "opensOn"],
        properties: {
          title: { type: "string", title: "Title", translate: true, maxLength: 80 },
          subtitle: { type: "string", title: "Subtitle", translate: true },
          opensOn: { type: "string", format: "date", title: "Opens on" },
          closesOn: { type: "string", format: "date", title: "Closes on" },
          room: { type: "string", title: "Room", enum: ["East wing", "West wing", "Atrium", "Garden"] },
          ticketPrice: { type: "number", title: "Ticket price (€)", minimum: 0 },
          featured: { type: "boolean", title: "Featured on the entrance screen" },
          artworks: { type: "array", title: "Artworks", items: { type: "string", _ref: "artworks" } },
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
          banner: { type: "object", title: "Banner", "x-disableable-bool": true, enableButton: "Show banner", disableButton: "Hide banner" },
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
    documents: [
      {
        title: { nl: "Licht op het Noorden", en: "Light on the North" },
        subtitle: { nl: "Schilders van de Waddenkust", en: "Painters of the Wadden coast" },
        opensOn: "2026-09-12",
        closesOn: "2027-01-10",
        room: "East wing",
        ticketPrice: 14.5,
        featured: true,
      },
      {
        title: { nl: "Glas en Vuur", en: "Glass and Fire" },
        subtitle: { nl: "Een eeuw Leerdams glas", en: "A century of Leerdam glass" },
        opensOn: "2027-02-01",
        room: "Atrium",
        ticketPrice: 12,
        featured: false,
      },
    ],
  },
  {
    bucket: demoBucket("artworks", "Artworks", { singleton: false, jsonSchema: {
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
    bucket: demoBucket("artists", "Artists", { singleton: false, jsonSchema: {
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
      { name: "Hendrik Willem Mesdag", born: "1831-02-23", biography: { nl: "Zeeschilder uit Groningen.", en: "Marine painter from Groningen." }, colour: "#2f5d8a" },
      { name: "Andries Copier", born: "1901-01-11", biography: { nl: "Glasontwerper in Leerdam.", en: "Glass designer in Leerdam." }, colour: "#3d7f6e" },
    ],
  },
  {
    bucket: demoBucket("site-settings", "Site settings", { singleton: true, jsonSchema: {
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
