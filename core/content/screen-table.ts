import type { Message } from "@core/messages";
import type { DocumentRule } from "./document-rules";
import type { ScreenName, ScreenPages } from "./screens";

/*
 * What a specialised screen registers with the engine (docs/decisions/006-screens-as-modules.md). The screens'
 * table (specialised-screens/table.ts) lists one entry per screen; the composition roots hand it to the engine (the server's
 * Services, the browser's ScreenTableProvider in app/root.tsx), which imports no screen. A screen's pages, with
 * their loaders and components, are its routes (specialised-screens/{name}/routes.ts, read by app/routes.ts).
 */

/** What a screen asks of a bucket definition, checked where the definition is saved. */
export interface ScreenDefinition {
  singleton: boolean;
  jsonSchema: Record<string, unknown>;
}

export interface ScreenModule {
  /** Its name: a bucket's `screen`, and the prefix of its pages' URLs (`/{name}/{bucket}/…`). */
  name: string;
  /** The pages it has (its routes.ts); links to its buckets are made from these (core/content/screens.ts). */
  pages: ScreenPages;
  /** Its rules for its buckets' documents: every save runs them; those marked inBrowser, the form's resolver too. */
  rules: readonly DocumentRule[];
  /** What it asks of its buckets' definitions (messages of the bucket editor's Screen field). */
  requirements(definition: ScreenDefinition): Message[];
}

export type ScreenTable = readonly ScreenModule[];

/** The screens' rules alone: what the browser's form check reads. */
export type ScreenRules = readonly Pick<ScreenModule, "name" | "rules">[];

/** The rules of a bucket's screen (none for the generic editor or a screen the table lacks). */
export function screenRules(table: ScreenRules, screen: ScreenName | undefined): readonly DocumentRule[] {
  return table.find((entry) => entry.name === screen)?.rules ?? [];
}

/** What the chosen screen asks of a bucket definition: its messages, none when it is content. */
export function screenRequirements(table: ScreenTable, definition: ScreenDefinition & { screen: ScreenName }): Message[] {
  return table.find((entry) => entry.name === definition.screen)?.requirements(definition) ?? [];
}
