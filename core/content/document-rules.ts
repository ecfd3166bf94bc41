import type { Message } from "@core/messages";
import type { JsonSchema } from "@core/schema/normalize";
import { screenRules, type ScreenRules } from "./screen-table";
import type { ScreenName } from "./screens";
import { selfReferencingField } from "./trends";

/*
 * The rules a field kind or a specialised screen adds to a document beyond its bucket's schema: every save runs them
 * (server/content/save-rules.ts), and the form's resolver (core/form/subforms.ts) runs those it can check as the
 * editor types. A field kind's rule is one entry of FIELD_KIND_RULES here; a screen's rules are its entry's in the
 * screens' table (specialised-screens/table.ts), which the engine is handed (core/content/screen-table.ts) and never imports.
 */

/** What a rule sees of a save: the document's data, its bucket's schema, collection and screen, and which document. */
export interface RuleInput {
  screen: ScreenName | undefined;
  schema: JsonSchema;
  /** The bucket's collection (a save knows it; the form's resolver runs no rule that needs it). */
  collection?: string;
  /** An existing document's id (none for a new one). */
  contentId?: string;
  data: unknown;
}

/** A rule's refusal: under which field, with which message and answer status. */
export interface RuleFinding {
  field: string;
  message: Message;
  status: 400 | 422;
}

export interface DocumentRule {
  /** Whose rule it is (a screen or a field kind), for the reader. */
  owner: string;
  /** Whether the form's resolver checks it too: it needs nothing but the document's data. */
  inBrowser: boolean;
  check(input: RuleInput): RuleFinding | null;
}

const FIELD_KIND_RULES: readonly DocumentRule[] = [
  {
    owner: "trend-select fields: a trend is not related to itself",
    inBrowser: false,
    check: ({ schema, collection, contentId, data }) => {
      if (!contentId || !collection || typeof data !== "object" || data === null) return null;
      const field = selfReferencingField(schema, collection, contentId, data as Record<string, unknown>);
      return field === null ? null : { field, message: { key: "content.trendRelatedToItself" }, status: 422 };
    },
  },
];

/**
 * The findings of the rules of the document's screen (from the table it is handed), then the field kinds': all of
 * them (a save), or those the browser checks (the form's resolver).
 */
export function documentRuleFindings(input: RuleInput, which: "all" | "inBrowser", screens: ScreenRules): RuleFinding[] {
  const findings: RuleFinding[] = [];
  for (const rule of [...screenRules(screens, input.screen), ...FIELD_KIND_RULES]) {
    if (which === "inBrowser" && !rule.inBrowser) continue;
    const finding = rule.check(input);
    if (finding) findings.push(finding);
  }
  return findings;
}
