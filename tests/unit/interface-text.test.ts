import { describe, expect, it } from "vitest";
import { catalogues } from "@core/catalogues";

/* Issue 36: interface text never points at a repository file (docs/screens.md): nobody using the interface can open one. */

const REPOSITORY_PATH = /\b(?:docs|app|core|server|tests|scripts|locales)\/[\w./-]+|\.md\b/;

/** Every message of a catalogue with its key. */
function messages(node: unknown, prefix = ""): Array<[string, string]> {
  if (typeof node === "string") return [[prefix, node]];
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => messages(value, prefix ? `${prefix}.${key}` : key));
}

describe("interface text", () => {
  it.each(["en", "nl"] as const)("names no repository file in the %s catalogue", (locale) => {
    const found = messages(catalogues[locale]).filter(([, text]) => REPOSITORY_PATH.test(text));
    expect(found).toEqual([]);
  });

  it("the check finds a path", () => {
    expect(REPOSITORY_PATH.test("a specialised screen built on it (docs/screens.md).")).toBe(true);
    expect(REPOSITORY_PATH.test("How to check the signature: webhooks.md.")).toBe(true);
    expect(REPOSITORY_PATH.test("Open the webhook and its delivery log")).toBe(false);
  });
});
