import { createHash } from "node:crypto";
import type { ValidateFunction } from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";
import { createAjv } from "../../core/schema/ajv";
import { normalizeSchema, type NormalizedSchema } from "../../core/schema/normalize";

export interface CompiledBucketSchema extends NormalizedSchema {
  hash: string;
  validate: ValidateFunction | null;
}

interface CacheEntry {
  compiled: CompiledBucketSchema;
  module?: string;
}

const MAX_CACHED = 500;
const cache = new Map<string, CacheEntry>();

export function schemaHash(jsonSchema: unknown, locales: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify([jsonSchema, locales])).digest("base64url").slice(0, 16);
}

function entryFor(bucket: { jsonSchema: unknown; locales: readonly string[] }): CacheEntry {
  const hash = schemaHash(bucket.jsonSchema, bucket.locales);
  let entry = cache.get(hash);
  if (!entry) {
    const normalized = normalizeSchema(bucket.jsonSchema, bucket.locales);
    let validate: ValidateFunction | null = null;
    if (normalized.problems.length === 0) {
      try {
        validate = createAjv().compile(normalized.schema);
      } catch (error) {
        normalized.problems.push(`schema error: ${(error as Error).message}`);
      }
    }
    entry = { compiled: { ...normalized, hash, validate } };
    if (cache.size >= MAX_CACHED) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(hash, entry);
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
    const ajv = createAjv({ code: { source: true, esm: false } });
    const code = standaloneCode(ajv, ajv.compile(entry.compiled.schema));
    entry.module = [
      "const module = { exports: {} }; const exports = module.exports;",
      "const require = (id) => { const found = globalThis.__vitrineAjvRuntime?.[id]; if (!found) throw new Error('Missing validator runtime ' + id); return found; };",
      code,
      "export default module.exports.default ?? module.exports;",
    ].join("\n");
  }
  return entry.module;
}
