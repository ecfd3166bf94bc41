import type { ValidateFunction } from "ajv";
import equal from "ajv/dist/runtime/equal";
import ucs2length from "ajv/dist/runtime/ucs2length";

/** A CommonJS helper as bundled: the function itself, or (depending on the bundler's interop) its exports. */
const helper = (imported: unknown) => (typeof imported === "function" ? imported : (imported as { default: unknown }).default);

// The helpers AJV's standalone code requires; the served validator module reads them from here.
(globalThis as Record<string, unknown>).__vitrineAjvRuntime = {
  "ajv/dist/runtime/equal": { default: helper(equal) },
  "ajv/dist/runtime/ucs2length": { default: helper(ucs2length) },
};

const loaded = new Map<string, Promise<ValidateFunction>>();

/** The bucket's precompiled validator, as an ES module from our own origin (no eval: the CSP forbids it). */
export function loadBrowserValidator(url: string): Promise<ValidateFunction> {
  let promise = loaded.get(url);
  if (!promise) {
    promise = import(/* @vite-ignore */ url).then((module: { default: ValidateFunction }) => module.default);
    loaded.set(url, promise);
  }
  return promise;
}
