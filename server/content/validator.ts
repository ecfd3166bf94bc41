import { createHash } from "node:crypto";
import type { ValidateFunction } from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";
import { compileSchema, compileSchemaWithSource } from "@core/schema/ajv";
import { normalizeSchema, type NormalizedSchema } from "@core/schema/normalize";
import { BoundedMap } from "@core/bounded-map";

export interface CompiledBucketSchema extends NormalizedSchema {
  hash: string;
  validate: ValidateFunction | null;
}

interface CacheEntry {
  compiled: CompiledBucketSchema;
  module?: string;
}

const MAX_CACHED = 500;
/** By the schema's JSON text (with the locales): the SHA-256 is computed once per schema, not per save. */
const cache = new BoundedMap<string, CacheEntry>(MAX_CACHED);

const hashOf = (text: string) => createHash("sha256").update(text).digest("base64url").slice(0, 16);

export function schemaHash(jsonSchema: unknown, locales: readonly string[]): string {
  return hashOf(JSON.stringify([jsonSchema, locales]));
}

function entryFor(bucket: { jsonSchema: unknown; locales: readonly string[] }): CacheEntry {
  const { jsonSchema, locales } = bucket;
  const key = JSON.stringify([jsonSchema, locales]);
  let entry = cache.get(key);
  if (!entry) {
    const hash = hashOf(key);
    const normalized = normalizeSchema(jsonSchema, locales);
    let validate: ValidateFunction | null = null;
    if (normalized.problems.length === 0) {
      try {
        validate = compileSchema(normalized.schema);
      } catch (error) {
        normalized.problems.push(`schema error: ${(error as Error).message}`);
      }
    }
    entry = { compiled: { ...normalized, hash, validate } };
    cache.set(key, entry);
  }
  return entry;
}

/** The bucket's normalised schema and its validator, compiled once per schema. */
export function compileBucketSchema(bucket: { jsonSchema: unknown; locales: readonly string[] }): CompiledBucketSchema {
  return entryFor(bucket).compiled;
}

/**
 * The same validator as an ES module for the browser: AJV's standalone code,
 * so the browser runs it without eval (the CSP forbids that). Its few runtime
 * helpers come from the client bundle through `globalThis.__vitrineAjvRuntime`.
 */
export function validatorModule(bucket: { jsonSchema: unknown; locales: readonly string[] }): string | null {
  const entry = entryFor(bucket);
  if (!entry.compiled.validate) return null;
  if (!entry.module) {
    const { ajv, validate } = compileSchemaWithSource(entry.compiled.schema);
    const code = standaloneCode(ajv, validate);
    entry.module = [
      "const module = { exports: {} }; const exports = module.exports;",
      "const require = (id) => { const found = globalThis.__vitrineAjvRuntime?.[id]; if (!found) throw new Error('Missing validator runtime ' + id); return found; };",
      code,
      "export default module.exports.default ?? module.exports;",
    ].join("\n");
  }
  return entry.module;
}
