// The bucket the content sections measure, and a realistic ~2 kB document of it:
// an artwork with translated texts, an object, a tag list and a list of audio-tour stops.

export const BENCH_BUCKET = {
  slug: "bench-artworks",
  name: "Bench artworks",
  collectionName: "bench-artworks",
  locales: ["nl", "en"],
  jsonSchema: {
    type: "object",
    required: ["title", "year"],
    properties: {
      title: { type: "string", title: "Title", translate: true, isNotEmpty: true, maxLength: 120 },
      maker: { type: "string", title: "Maker", maxLength: 120 },
      year: { type: "integer", title: "Year", minimum: 1000, maximum: 2100 },
      inventoryNumber: { type: "string", title: "Inventory number", pattern: "^[A-Z]{2,4}-[0-9]{1,8}$" },
      acquiredOn: { type: "string", format: "date", title: "Acquired on" },
      material: { type: "string", title: "Material", enum: ["Oil on canvas", "Bronze", "Glass", "Paper", "Mixed media"] },
      onDisplay: { type: "boolean", title: "On display" },
      description: { type: "string", title: "Description", translate: true, renderer: "textarea", maxLength: 2000 },
      dimensions: {
        type: "object",
        title: "Dimensions (cm)",
        "x-indent": true,
        properties: {
          height: { type: "number", minimum: 0 },
          width: { type: "number", minimum: 0 },
          depth: { type: "number", minimum: 0 },
        },
      },
      tags: { type: "array", title: "Tags", renderer: "tags", items: { type: "string", maxLength: 40 } },
      audioTour: {
        type: "array",
        title: "Audio tour stops",
        maxItems: 10,
        "title-key": "code",
        items: {
          type: "object",
          required: ["code"],
          properties: {
            code: { type: "string", title: "Code", isNotEmpty: true },
            text: { type: "string", title: "Text", translate: true },
            durationSeconds: { type: "integer", title: "Duration (s)", minimum: 0 },
          },
        },
      },
      accent: { type: "string", title: "Accent colour", format: "color" },
    },
  },
};

const DESCRIPTION_NL =
  "Een breed panorama van de Waddenkust bij eb, geschilderd in de zomer van het jaar waarin de kunstenaar zich in " +
  "het noorden vestigde. Het licht valt laag over de slikken; in de verte ligt een vissersboot droog. De schilder " +
  "werkte buiten, in snelle lagen, en voltooide het werk later in het atelier.";
const DESCRIPTION_EN =
  "A wide panorama of the Wadden coast at low tide, painted in the summer of the year the artist settled in the " +
  "north. The light falls low over the mudflats; in the distance a fishing boat lies aground. The painter worked " +
  "outdoors, in quick layers, and finished the work later in the studio.";

/** A valid document of BENCH_BUCKET, about 2 kB as JSON; `n` varies its title and numbers. */
export function benchDocument(n = 1) {
  return {
    title: { nl: `Licht op het wad ${n}`, en: `Light on the mudflats ${n}` },
    maker: "Hendrik Willem Mesdag",
    year: 1880 + (n % 100),
    inventoryNumber: `SM-${n}`,
    acquiredOn: "1998-04-17",
    material: "Oil on canvas",
    onDisplay: n % 2 === 0,
    description: { nl: DESCRIPTION_NL, en: DESCRIPTION_EN },
    dimensions: { height: 120.5, width: 245, depth: 6.5 },
    tags: ["coast", "landscape", "19th century", "The Hague School"],
    audioTour: [1, 2, 3, 4].map((stop) => ({
      code: `${n % 1000}-${stop}`,
      text: {
        nl: `Stop ${stop}: kijk naar de horizon en het licht op het water, en zie hoe de lucht het grootste deel van het doek vult.`,
        en: `Stop ${stop}: look at the horizon and the light on the water, and see how the sky fills most of the canvas.`,
      },
      durationSeconds: 45 + stop * 15,
    })),
    accent: "#4a6b8a",
  };
}
