import type { Message } from "@core/messages";

/*
 * `$ref` in a bucket schema (docs/schema-dialect.md): the form engine renders none, so the dialect check refuses
 * them, once for the whole schema rather than once per field. Schemas written for rjsf put shared parts under
 * `definitions` and point at them from each field (`"$ref": "#/definitions/address"`): the message names the
 * definitions to inline.
 */

/** What the dialect check's walk met: the `$ref` values, and the root's `definitions`/`$defs` keywords. */
export interface Refs {
  refs: Set<string>;
  containers: string[];
}

export const REF_TARGETS = new Set(["definitions", "$defs"]);
const DEFINITION_REF = /^#\/(definitions|\$defs)\/([^/]+)$/;

/**
 * The `$ref`s of a schema as one message (the form engine renders none; rjsf-style schemas use one per field):
 * inline the definitions they name, or, for other targets, put the schema pointed at in their place. The root's
 * `definitions` is refused on its own only when no `$ref` names it (the message about the `$ref`s says to remove it).
 */
export function refMessages({ refs, containers }: Refs, at: (problem: Message) => Message): Message[] {
  const definitions = new Map<string, string>();
  const others: string[] = [];
  for (const ref of refs) {
    const match = DEFINITION_REF.exec(ref);
    if (match?.[1] && match[2]) definitions.set(match[2].replaceAll("~1", "/").replaceAll("~0", "~"), match[1]);
    else others.push(ref);
  }
  const quoted = (names: Iterable<string>) => [...names].map((name) => `"${name}"`).join(", ");
  const messages: Message[] = [];
  const named = new Set(definitions.values());
  if (definitions.size) {
    // "then remove definitions": the schema's definitions the $refs name, once they are inlined.
    const remove = containers.filter((keyword) => named.has(keyword)).join(", ");
    const then: Message | string = remove ? { key: "adminBuckets.dialect.refThenRemove", params: { keyword: remove } } : "";
    const key = definitions.size === 1 ? "adminBuckets.dialect.refDefinition" : "adminBuckets.dialect.refDefinitions";
    messages.push({ key, params: { names: quoted(definitions.keys()), then } });
  }
  if (others.length) messages.push({ key: "adminBuckets.dialect.refOther", params: { refs: quoted(others) } });
  for (const keyword of containers)
    if (!named.has(keyword)) messages.push(at({ key: "adminBuckets.dialect.notRendered", params: { keyword } }));
  return messages;
}
