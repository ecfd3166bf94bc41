import { createRequire } from "node:module";
import { runInNewContext } from "node:vm";
import standaloneCode from "ajv/dist/standalone/index.js";
import { expect, test } from "vitest";
import { compileSchema, compileSchemaWithSource } from "./ajv";

const titled = (id: string, maxLength: number) => ({
  $id: id,
  type: "object",
  properties: { title: { type: "string", maxLength, isNotEmpty: true } },
  required: ["title"],
});

test("two schemas with the same $id compile on the shared instance, each with its own rules", () => {
  const short = compileSchema(titled("urn:vitrine:room", 3));
  const long = compileSchema(titled("urn:vitrine:room", 10));
  expect(short({ title: "Hall" })).toBe(false);
  expect(long({ title: "Hall" })).toBe(true);
  expect(long({ title: " " })).toBe(false);
});

test("a schema AJV refuses leaves the shared instance as it was for the next one", () => {
  expect(() => compileSchema({ $id: "urn:vitrine:broken", type: "object", properties: { a: { type: "nope" } } })).toThrow();
  const validate = compileSchema({ $id: "urn:vitrine:broken", type: "object", properties: { a: { type: "number" } } });
  expect(validate({ a: 1 })).toBe(true);
  expect(validate({ a: "1" })).toBe(false);
});

test("validators compiled before the shared instance is replaced keep working after it", () => {
  const validators = Array.from({ length: 450 }, (_, index) => compileSchema(titled(`urn:many:${index}`, index + 1)));
  expect(validators[0]!({ title: "ab" })).toBe(false);
  expect(validators[0]!({ title: "a" })).toBe(true);
  expect(validators[449]!({ title: "x".repeat(450) })).toBe(true);
  expect(validators[449]!({ title: "x".repeat(451) })).toBe(false);
});

test("standalone code from the shared source instance runs on its own, schema after schema", () => {
  const runtimeRequire = createRequire(import.meta.url);
  const load = (schema: object) => {
    const { ajv, validate } = compileSchemaWithSource(schema);
    const module = { exports: {} as { default?: (data: unknown) => boolean } };
    runInNewContext(standaloneCode(ajv, validate), { module, exports: module.exports, require: runtimeRequire });
    return module.exports.default ?? (module.exports as unknown as (data: unknown) => boolean);
  };
  const first = load({ type: "object", properties: { date: { type: "string", format: "date" } } });
  const second = load({ type: "object", properties: { date: { type: "string", pattern: "^x" } } });
  expect(first({ date: "2026-12-05" })).toBe(true);
  expect(first({ date: "5 December" })).toBe(false);
  expect(second({ date: "xmas" })).toBe(true);
  expect(second({ date: "2026-12-05" })).toBe(false);
});
