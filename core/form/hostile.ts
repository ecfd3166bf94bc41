import { FORBIDDEN_KEYS, forbiddenNameMessage, inspectPayload } from "@core/content/payload";
import type { Message } from "@core/messages";

/** Conform's own fields: the list intent (JSON) and the form's state (JSON). */
const INTENT_FIELD = "__intent__";
const STATE_FIELD = "__state__";

const SEGMENT = /(?:^|[.[])([^.[\]]+)/g;

/** The message for a field name with a prototype segment ('rooms[0].__proto__.x'), naming where it is. */
function forbiddenName(name: string): Message | null {
  for (const match of name.matchAll(SEGMENT)) {
    const segment = match[1];
    if (segment !== undefined && FORBIDDEN_KEYS.has(segment)) return forbiddenNameMessage(segment, name.slice(0, match.index));
  }
  return null;
}

function parsedJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** What is wrong with Conform's list intent, if anything: malformed, a prototype name, or a hostile value. */
function intentProblem(text: string): Message | null {
  const parsed = parsedJson(text);
  const payload =
    parsed.ok && typeof parsed.value === "object" && parsed.value !== null ? (parsed.value as { payload?: unknown }).payload : undefined;
  if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null) return { key: "content.intentUnreadable" };
  if (typeof payload !== "object" || payload === null) return null;
  const { name, value } = payload as { name?: unknown; value?: unknown };
  const forbidden = typeof name === "string" ? forbiddenName(name) : null;
  return forbidden ?? inspectPayload(value)?.message ?? null;
}

/**
 * Takes hostile entries out of a form post before Conform reads it, and says
 * why: a field name with a prototype segment (Conform would silently drop it
 * and save the rest), or a malformed or hostile list intent or form state
 * (Conform would throw, or recurse through a deeply nested value). The rest
 * of the input is kept, so the form re-renders with it and the messages.
 * The same in the browser (the bucket-form modal) and in the server's pipeline.
 */
export function removeHostileEntries(formData: FormData): Message[] {
  const problems = new Map<string, Message>();
  const add = (problem: Message) => problems.set(JSON.stringify(problem), problem);
  for (const name of new Set(formData.keys())) {
    const forbidden = forbiddenName(name);
    if (forbidden) {
      formData.delete(name);
      add(forbidden);
    }
  }
  const intent = formData.get(INTENT_FIELD);
  if (typeof intent === "string") {
    const intentIssue = intentProblem(intent);
    if (intentIssue) {
      formData.delete(INTENT_FIELD);
      add(intentIssue);
    }
  }
  const state = formData.get(STATE_FIELD);
  if (typeof state === "string" && !parsedJson(state).ok) {
    formData.delete(STATE_FIELD);
    add({ key: "content.stateUnreadable" });
  }
  return [...problems.values()];
}
