import { compileErrors, validate } from "@readme/openapi-parser";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "@server/content/buckets";
import { createPublished } from "@tests/support/publishing";
import { createTestBucket } from "@tests/support/fixtures";
import { deliver, deliveryClient, json } from "@tests/support/delivery";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * GET /api/v1/delivery/openapi.json: a real OpenAPI 3.1 validator accepts it, and openapi-typescript makes
 * TypeScript types from it that the API's real answers satisfy (checked by the TypeScript compiler).
 */

let server: TestServer;
let token: string;
let guide: Bucket;
let people: Bucket;
let hidden: Bucket;
const unique = Date.now().toString(36);
let answers: Record<string, unknown> = {};

beforeAll(async () => {
  server = await startTestServer();
  hidden = await createTestBucket(server.db, { slug: `hidden-${unique}`, collectionName: `hidden-${unique}` });
  people = await createTestBucket(server.db, {
    slug: `people-${unique}`,
    collectionName: `people-${unique}`,
    locales: ["en", "nl"],
    jsonSchema: {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string", title: "Name" }, portrait: { type: "string", _ref: "b-image" } },
    },
  });
  guide = await createTestBucket(server.db, {
    slug: `audio-guide-${unique}`,
    collectionName: `guide-${unique}`,
    locales: ["nl", "en"],
    jsonSchema: {
      type: "object",
      required: ["title"],
      properties: {
        title: { type: "string", title: "Title", translate: true, maxLength: 80 },
        stop: { type: "integer", minimum: 1 },
        kind: { type: "string", enum: ["room", "object"] },
        opensOn: { type: "string", format: "date" },
        active: { type: "boolean", "x-disableable-bool": false },
        speaker: { type: "string", _ref: `people-${unique}` },
        secret: { type: "string", _ref: `hidden-${unique}` },
        clip: { type: "string", _ref: "b-video" },
        tags: { type: "array", items: { type: "string" }, renderer: "tags" },
        texts: { type: "array", renderer: "texts" },
        colour: { type: "string", renderer: "color" },
        steps: {
          type: "array",
          items: { type: "object", properties: { label: { type: "string", translate: true }, seconds: { type: "number" } } },
        },
      },
    },
  });
  const speaker = (await createPublished(server.db, people.id, { name: "Ada" }, null)).contentId;
  const stop = (
    await createPublished(
      server.db,
      guide.id,
      {
        title: { nl: "Ingang", en: "Entrance" },
        stop: 1,
        kind: "room",
        speaker,
        tags: ["a"],
        texts: [{ id: "x", text: { nl: "Hallo", en: "" } }],
        steps: [{ label: { en: "Look up" }, seconds: 3 }],
      },
      null,
    )
  ).contentId;
  ({ token } = await deliveryClient(server.db, { read: [guide.slug, people.slug] }));
  const read = async (path: string) => json(await deliver(server.url, `/api/v1/delivery${path}`, token));
  answers = {
    all: await read(`/buckets/${guide.slug}/documents/${stop}`),
    localized: await read(`/buckets/${guide.slug}/documents/${stop}?locale=nl&populate=1`),
    page: await read(`/buckets/${guide.slug}/documents?locale=en&populate=1`),
    buckets: await read("/buckets"),
  };
});
afterAll(() => server.stop());

const openapi = async () =>
  json<Record<string, unknown> & { components: { schemas: Record<string, unknown> }; paths: Record<string, unknown> }>(
    await deliver(server.url, "/api/v1/delivery/openapi.json", token),
  );

/** TypeScript's diagnostics for these sources, compiled in memory (strict). */
function typeErrors(files: Record<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.readFile = (name) => files[name] ?? read(name);
  host.fileExists = (name) => name in files || exists(name);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (name) =>
    Object.keys(files).some((file) => file.startsWith(`${name.replace(/\/$/, "")}/`)) || (directoryExists?.(name) ?? false);
  host.getSourceFile = ((original) => (name, language) =>
    name in files ? ts.createSourceFile(name, files[name]!, language) : original(name, language))(host.getSourceFile.bind(host));
  const program = ts.createProgram(Object.keys(files), options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && d.file.fileName in files)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 to a real validator, with a component per bucket the client reads and none for others", async () => {
    const document = await openapi();
    expect(document.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : compileErrors(result)).toEqual([]);
    expect(result.warnings).toEqual([]);
    const names = Object.keys(document.components.schemas);
    const guideName = names.find((name) => /^AudioGuide\w*$/.test(name) && !/(Localized|Document|Page)$/.test(name));
    expect(guideName).toBeDefined();
    for (const suffix of ["", "Localized", "Document", "LocalizedDocument", "Page", "LocalizedPage"])
      expect(names).toContain(`${guideName}${suffix}`);
    expect(names.some((name) => name.startsWith("Hidden"))).toBe(false);
    expect(Object.keys(document.paths).some((path) => path.includes(hidden.slug))).toBe(false);
    expect(Object.keys(document.paths)).toContain(`/api/v1/delivery/buckets/${guide.slug}/documents/{contentId}`);
  });

  it("generates TypeScript types that the API's real answers satisfy, and that refuse a wrong value", async () => {
    const document = await openapi();
    const types = astToString(await openapiTS(structuredClone(document) as never));
    const name = Object.keys(document.components.schemas).find(
      (key) => /^AudioGuide\w*$/.test(key) && !/(Localized|Document|Page)$/.test(key),
    )!;
    const usage = [
      `import type { components } from "./api";`,
      `type S = components["schemas"];`,
      `export const all: S["${name}Document"] = ${JSON.stringify(answers.all)};`,
      `export const localized: S["${name}LocalizedDocument"] = ${JSON.stringify(answers.localized)};`,
      `export const page: S["${name}LocalizedPage"] = ${JSON.stringify(answers.page)};`,
      `export const buckets: S["BucketList"] = ${JSON.stringify(answers.buckets)};`,
      `export const title: string | null | undefined = localized.data.title;`,
    ].join("\n");
    const errors = typeErrors({ "/virtual/api.ts": types, "/virtual/usage.ts": usage });
    expect(errors, types).toEqual([]);
    const wrong = [
      `import type { components } from "./api";`,
      `export const bad: components["schemas"]["${name}Localized"] = { title: 5 };`,
    ].join("\n");
    expect(typeErrors({ "/virtual/api.ts": types, "/virtual/wrong.ts": wrong }).length).toBeGreaterThan(0);
  });
});
