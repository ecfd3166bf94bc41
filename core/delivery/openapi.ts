import { isPlainObject } from "@core/plain-object";
import { TRANSLATE_OBJECT_RENDERER, type JsonSchema } from "@core/schema/normalize";
import { propertiesOf } from "@core/schema/walk";

/*
 * The OpenAPI 3.1 document of the delivery API for one client (GET /api/v1/delivery/openapi.json): the shared
 * paths, and per bucket it reads four component schemas, so that an app gets typed content
 * (openapi-typescript turns them into TypeScript types):
 *   {Name}                   the data of a document with every locale (translated properties are per-locale objects)
 *   {Name}Localized          the data with `locale`: translated properties are plain values (null when no locale has one)
 *   {Name}Document           the answer for one document, without `locale`
 *   {Name}LocalizedDocument  the same with `locale`
 * and {Name}Page / {Name}LocalizedPage for the list. A reference into a bucket the client reads is typed as its id or
 * that bucket's document (with `populate`); into any other bucket as an id. Media are Media objects. The schemas
 * keep the standard JSON Schema keywords of the bucket's normalised schema (types, titles, enums, limits, required)
 * and leave out the form's own (renderer, _ref, x-…, $data).
 */
/* eslint-disable max-lines -- Over 300 lines on purpose: it is one document, written in the order an app's developer reads it. */

export interface OpenApiBucket {
  slug: string;
  name: string;
  singleton: boolean;
  collectionName: string;
  locales: readonly string[];
  schema: JsonSchema;
}

const KEPT = [
  "type",
  "title",
  "description",
  "format",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "default",
  "const",
] as const;

/** The components of each bucket: its data, then the localized data, documents and pages. */
const VARIANTS = ["", "Localized", "Document", "LocalizedDocument", "Page", "LocalizedPage"] as const;

/** A bucket's component name: its slug in PascalCase (letters and digits), unique among the others. */
export function componentNames(buckets: readonly Pick<OpenApiBucket, "slug">[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set(["Media", "MissingMedia", "Problem", "Bucket", "BucketList", "Fallbacks"]);
  // Each bucket takes its name and its variants' names: `guide-localized` must not become guide's GuideLocalized.
  const variants = (name: string) => VARIANTS.map((suffix) => `${name}${suffix}`);
  for (const { slug } of buckets) {
    const pascal =
      slug
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join("") || "Bucket";
    const base = /^[A-Za-z]/.test(pascal) ? pascal : `B${pascal}`;
    let name = base;
    for (let n = 2; variants(name).some((variant) => taken.has(variant)); n += 1) name = `${base}${n}`;
    for (const variant of variants(name)) taken.add(variant);
    names.set(slug, name);
  }
  return names;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Properties that say only their type: `{ name: "string" }` → `{ name: { type: "string" } }`. */
const typed = (types: Record<string, string | string[]>) =>
  Object.fromEntries(Object.entries(types).map(([name, type]) => [name, { type }]));

/** A normalised schema node as an OpenAPI (JSON Schema 2020-12) schema of what the API answers. */
function convert(node: unknown, localized: boolean, documentOf: (collection: string) => string | null, depth = 0): JsonSchema {
  if (!isPlainObject(node) || depth > 64) return {};
  const reference = typeof node._ref === "string" ? node._ref : null;
  if (reference === "b-image" || reference === "b-video" || reference === "b-file") {
    return { ...(typeof node.title === "string" ? { title: node.title } : {}), anyOf: [ref("Media"), ref("MissingMedia")] };
  }
  if (reference) {
    const target = documentOf(reference);
    const id = { type: "string", format: "uuid" };
    return { ...(typeof node.title === "string" ? { title: node.title } : {}), ...(target ? { anyOf: [id, ref(target)] } : id) };
  }
  if (node.renderer === TRANSLATE_OBJECT_RENDERER) {
    const perLocale = propertiesOf(node);
    if (localized) {
      const first = Object.values(perLocale)[0];
      const value = convert(first, true, documentOf, depth + 1);
      delete value.title;
      return { ...(typeof node.title === "string" ? { title: node.title } : {}), anyOf: [value, { type: "null" }] };
    }
  }
  const out: JsonSchema = {};
  for (const key of KEPT) if (node[key] !== undefined) out[key] = node[key];
  if (Array.isArray(node.enum)) out.enum = node.enum;
  if (node.renderer === "texts" && localized && isPlainObject(node.items)) {
    out.items = {
      type: "object",
      properties: { id: { type: "string" }, text: { type: ["string", "null"] } },
      required: ["id"],
    };
    return out;
  }
  if (isPlainObject(node.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(propertiesOf(node)).map(([name, child]) => [name, convert(child, localized, documentOf, depth + 1)]),
    );
    if (Array.isArray(node.required)) {
      const names = Object.keys(out.properties as object);
      const required = (node.required as unknown[]).filter((name): name is string => typeof name === "string" && names.includes(name));
      if (required.length) out.required = required;
    }
    if (typeof node.additionalProperties === "boolean") out.additionalProperties = node.additionalProperties;
  }
  if (isPlainObject(node.items)) out.items = convert(node.items, localized, documentOf, depth + 1);
  return out;
}

const problem = (description: string) => ({ description, content: { "application/problem+json": { schema: ref("Problem") } } });

const COMMON_ERRORS = {
  "401": problem("No valid API client token (WWW-Authenticate: Bearer)."),
  "429": problem("Too many requests: see Retry-After."),
};

const etagHeader = {
  ETag: { description: "A hash of the body: send it as If-None-Match to get 304 while it is unchanged.", schema: { type: "string" } },
};

function answer(description: string, schema: JsonSchema) {
  return { description, headers: etagHeader, content: { "application/json": { schema } } };
}

const localeParameters = (locales: readonly string[]) => [
  {
    name: "locale",
    in: "query",
    description: "Answer translated properties as plain values in this locale (with fallbacks); without it, every locale.",
    schema: { type: "string", enum: [...locales] },
  },
  {
    name: "fallback",
    in: "query",
    description: "The locales to fall back to, in order, comma-separated (default: the bucket's locale order), or 'none'.",
    schema: { type: "string" },
  },
  {
    name: "populate",
    in: "query",
    description: "Resolve references to documents this many levels deep (0-3).",
    schema: { type: "integer", minimum: 0, maximum: 3, default: 0 },
  },
];

/** Preview (docs/delivery.md, "Preview"): only for a client with preview turned on; any other gets 403. */
const previewParameters = [
  {
    name: "version",
    in: "query",
    description:
      "published (default): the published versions. newest: every document's newest version, drafts included (a preview client only; its answers are Cache-Control: private, no-store).",
    schema: { type: "string", enum: ["published", "newest"], default: "published" },
  },
  {
    name: "release",
    in: "query",
    description:
      "A release's id: what the release will show, its documents at their release version and every other document as published (a preview client only; not with version). A published release answers the published versions; a rolled-back one 404.",
    schema: { type: "string", format: "uuid" },
  },
];

const previewRefused = problem("version=newest or release=… asked by a client without preview.");

const notModified = { description: "Not modified (If-None-Match matched the ETag)." };

/** The OpenAPI document for the buckets a client reads. */
export function deliveryOpenApi(
  buckets: readonly OpenApiBucket[],
  info: { title: string; version: string; serverUrl: string },
): Record<string, unknown> {
  const names = componentNames(buckets);
  const nameOf = (slug: string) => names.get(slug) ?? slug;
  const byCollection = new Map(buckets.map((bucket) => [bucket.collectionName, nameOf(bucket.slug)]));
  const schemas: Record<string, unknown> = {
    Media: {
      type: "object",
      description: "A media reference: signed, expiring URLs of its files (see docs/delivery.md).",
      required: [
        "contentId",
        "kind",
        "mimetype",
        "filename",
        "size",
        "width",
        "height",
        "url",
        "renditions",
        "stills",
        "thumb",
        "alt",
        "caption",
        "credits",
      ],
      properties: {
        contentId: {
          type: "string",
          format: "uuid",
          description:
            "The media item the document names: an item of the media library, or the document's own use of one (its own crop, or its own texts over the library item's).",
        },
        kind: { type: "string", enum: ["image", "video", "file"] },
        ...typed({
          mimetype: "string",
          filename: "string",
          size: "number",
          width: ["integer", "null"],
          height: ["integer", "null"],
          duration: ["number", "null"],
        }),
        url: { type: "string", format: "uri" },
        alt: {
          description:
            "The alternative text (what an image or a video shows, for visitors who cannot see it): in the locale asked for (the first of its chain that has one; null when none has), else one per locale.",
          oneOf: [{ type: "string" }, { type: "null" }, { type: "object", additionalProperties: { type: "string" } }],
        },
        caption: {
          description: "The caption, in the locale asked for as alt is, else one per locale.",
          oneOf: [{ type: "string" }, { type: "null" }, { type: "object", additionalProperties: { type: "string" } }],
        },
        credits: { type: ["string", "null"], description: "Credits and copyright, as the museum must show them." },
        renditions: {
          type: "object",
          additionalProperties: {
            type: "object",
            required: ["url", "mimetype"],
            properties: { url: { type: "string", format: "uri" }, mimetype: { type: "string" } },
          },
        },
        stills: {
          type: "array",
          items: {
            type: "object",
            required: ["index", "custom", "url"],
            properties: { index: { type: ["integer", "null"] }, custom: { type: "boolean" }, url: { type: "string", format: "uri" } },
          },
        },
        thumb: {
          anyOf: [
            {
              type: "object",
              required: ["url", "index", "custom"],
              properties: { url: { type: "string", format: "uri" }, index: { type: ["integer", "null"] }, custom: { type: "boolean" } },
            },
            { type: "null" },
          ],
        },
      },
    },
    MissingMedia: {
      type: "object",
      description: "A media reference that is gone (an item of the library comes with any document that uses it).",
      required: ["contentId", "missing"],
      properties: { contentId: { type: "string" }, missing: { const: true } },
    },
    Problem: {
      type: "object",
      description: "RFC 9457 problem details.",
      required: ["type", "title", "status", "detail"],
      properties: typed({ type: "string", title: "string", status: "integer", detail: "string", parameter: "string" }),
    },
    Fallbacks: {
      type: "object",
      description: "Fields (paths) whose value came from a later locale of the chain, or from none (null).",
      additionalProperties: { type: ["string", "null"] },
    },
    Unresolved: {
      type: "array",
      description:
        "Paths of references left as ids although populate asked for their documents: not published, deleted, or not readable by this client. Absent when there are none.",
      items: { type: "string" },
    },
    Bucket: {
      type: "object",
      required: ["slug", "name", "singleton", "collectionName", "locales", "schema"],
      properties: {
        ...typed({ slug: "string", name: "string", singleton: "boolean", private: "boolean", collectionName: "string" }),
        locales: { type: "array", items: { type: "string" } },
        schema: { type: "object", description: "The bucket's normalised JSON schema.", additionalProperties: true },
      },
    },
    BucketList: { type: "object", required: ["items"], properties: { items: { type: "array", items: ref("Bucket") } } },
  };
  const paths: Record<string, unknown> = {
    "/api/v1/delivery/buckets": {
      get: {
        operationId: "listBuckets",
        summary: "The buckets this client reads, with their normalised schemas.",
        responses: { "200": answer("The buckets.", ref("BucketList")), "304": notModified, ...COMMON_ERRORS },
      },
    },
  };
  for (const bucket of buckets) {
    const name = nameOf(bucket.slug);
    const documentOf = (localized: boolean) => (collection: string) => {
      const target = byCollection.get(collection);
      return target ? `${target}${localized ? "Localized" : ""}Document` : null;
    };
    schemas[name] = { title: bucket.name, ...convert(bucket.schema, false, documentOf(false)) };
    schemas[`${name}Localized`] = { title: `${bucket.name} (one locale)`, ...convert(bucket.schema, true, documentOf(true)) };
    for (const localized of [false, true]) {
      const variant = `${name}${localized ? "Localized" : ""}`;
      schemas[`${variant}Document`] = {
        type: "object",
        required: ["contentId", "versionId", "bucket", "createdAt", "updatedAt", "locale", "fallbacks", "data"],
        properties: {
          contentId: { type: "string", format: "uuid" },
          versionId: { type: "string", format: "uuid", description: "The published version: a save does not change it, a publish does." },
          bucket: { const: bucket.slug },
          createdAt: { type: "string", format: "date-time" },
          updatedAt: { type: "string", format: "date-time", description: "When the published version last changed." },
          locale: localized ? { type: "string", enum: [...bucket.locales] } : { type: "null" },
          fallbacks: ref("Fallbacks"),
          unresolved: ref("Unresolved"),
          data: ref(variant),
        },
      };
      schemas[`${variant}Page`] = {
        type: "object",
        required: ["items", "nextCursor"],
        properties: { items: { type: "array", items: ref(`${variant}Document`) }, nextCursor: { type: ["string", "null"] } },
      };
    }
    const base = `/api/v1/delivery/buckets/${encodeURIComponent(bucket.slug)}`;
    const either = (suffix: string) => ({ oneOf: [ref(`${name}${suffix}`), ref(`${name}Localized${suffix}`)] });
    const badRequest = problem("A query parameter cannot be used: `parameter` names it.");
    /** The answers for one document: by its id, or a singleton's. */
    const documentResponses = {
      "200": answer("The document.", either("Document")),
      "304": notModified,
      "400": badRequest,
      ...COMMON_ERRORS,
      "403": previewRefused,
      "404": problem("No such document (or bucket, or release)."),
    };
    paths[`${base}/documents`] = {
      get: {
        operationId: `list${name}Documents`,
        summary: `Documents of ${bucket.name}, newest first or by sort, a page at a time.`,
        parameters: [
          ...localeParameters(bucket.locales),
          {
            name: "sort",
            in: "query",
            description: "updatedAt (default), createdAt, or a top-level property holding text, a number or a boolean.",
            schema: { type: "string" },
          },
          { name: "order", in: "query", schema: { type: "string", enum: ["asc", "desc"] } },
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
          { name: "cursor", in: "query", description: "nextCursor of the previous page.", schema: { type: "string" } },
          {
            name: "updatedSince",
            in: "query",
            description: "Only documents saved at or after this time.",
            schema: { type: "string", format: "date-time" },
          },
          {
            name: "q",
            in: "query",
            description: "Only documents with this text in any value.",
            schema: { type: "string", maxLength: 200 },
          },
          ...previewParameters,
        ],
        responses: {
          "200": answer("A page of documents.", either("Page")),
          "304": notModified,
          "400": badRequest,
          ...COMMON_ERRORS,
          "403": previewRefused,
          "404": problem("No such bucket (or release)."),
        },
      },
    };
    paths[`${base}/documents/{contentId}`] = {
      get: {
        operationId: `get${name}Document`,
        summary: `One document of ${bucket.name}.`,
        parameters: [
          { name: "contentId", in: "path", required: true, schema: { type: "string", format: "uuid" } },
          ...localeParameters(bucket.locales),
          ...previewParameters,
        ],
        responses: documentResponses,
      },
    };
    if (bucket.singleton) {
      paths[`${base}/singleton`] = {
        get: {
          operationId: `get${name}Singleton`,
          summary: `The document of the singleton ${bucket.name}.`,
          parameters: [...localeParameters(bucket.locales), ...previewParameters],
          responses: documentResponses,
        },
      };
    }
  }
  paths["/api/v1/delivery/media/{contentId}/{file}"] = {
    get: {
      operationId: "getMedia",
      summary: "A media file by its signed URL (as the documents answer it; no token needed).",
      security: [],
      parameters: [
        { name: "contentId", in: "path", required: true, schema: { type: "string", format: "uuid" } },
        { name: "file", in: "path", required: true, schema: { type: "string", pattern: "^(original|web|still-(\\d+|custom))$" } },
        { name: "expires", in: "query", required: true, schema: { type: "integer" } },
        { name: "signature", in: "query", required: true, schema: { type: "string" } },
      ],
      responses: {
        "200": { description: "The file." },
        "206": { description: "A byte range of the file." },
        "403": problem("Expired or forged signature."),
        "404": problem("No such media or file."),
      },
    },
  };
  paths["/api/v1/delivery/bundle"] = {
    get: {
      operationId: "getBundle",
      summary:
        "An offline bundle: one streamed tar of the chosen buckets' documents (as this API answers them) and their media, manifest.json last (docs/bundles.md).",
      parameters: [
        {
          name: "buckets",
          in: "query",
          required: true,
          description: "Comma-separated slugs of buckets this client reads.",
          schema: { type: "string" },
        },
        {
          name: "locales",
          in: "query",
          description: "Comma-separated locales: one file per document and locale (default: one file with every locale).",
          schema: { type: "string" },
        },
        { name: "populate", in: "query", schema: { type: "integer", minimum: 0, maximum: 3, default: 0 } },
        {
          name: "since",
          in: "query",
          description:
            "The id of an earlier bundle of this client with the same buckets, locales and populate: only what changed, and removed.json.",
          schema: { type: "string", format: "uuid" },
        },
        ...previewParameters,
      ],
      responses: {
        "200": {
          description: "The bundle.",
          content: { "application/x-tar": { schema: { type: "string", contentMediaType: "application/x-tar" } } },
        },
        "400": problem("A query parameter cannot be used: `parameter` names it."),
        ...COMMON_ERRORS,
        "403": previewRefused,
        "404": problem("No such bucket, no such earlier bundle, or no such release."),
      },
    },
  };
  return {
    openapi: "3.1.0",
    info: { title: info.title, version: info.version, description: "The delivery API of Vitrine for exhibit apps (docs/delivery.md)." },
    servers: [{ url: info.serverUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "The API client's token: <clientId>.<secret>" } },
      schemas,
    },
  };
}
