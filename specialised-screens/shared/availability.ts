import type { Message } from "@core/messages";
import { isPlainObject } from "@core/plain-object";
import type { ScreenName } from "@core/content/screens";

/*
 * A learning-environment session's availability (dle-sessies, docs/screens.md): its
 * `availableFrom` and `availableUntil` dates (format date, both optional). One check refuses an end before the
 * start (a rule of specialised-screens/dle-sessies/screen.ts: the form's resolver and every save run it); one function puts
 * the dates into a status for the editor's aside.
 */

export const AVAILABLE_FROM = "availableFrom";
export const AVAILABLE_UNTIL = "availableUntil";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const dateOf = (value: unknown) => (typeof value === "string" && DATE.test(value) ? value : null);

/** The document's errors only a screen knows of, by field: on dle-sessies, an end before the start. */
export function screenFieldErrors(screen: ScreenName | undefined, data: unknown): Record<string, Message[]> {
  if (screen !== "dle-sessies" || !isPlainObject(data)) return {};
  const from = dateOf(data[AVAILABLE_FROM]);
  const until = dateOf(data[AVAILABLE_UNTIL]);
  if (from && until && until < from) return { [AVAILABLE_UNTIL]: [{ key: "content.untilBeforeFrom", params: { from } }] };
  return {};
}

/**
 * Where a session stands on `today` (YYYY-MM-DD): always (no dates), not yet, open (from, until, or both), or over;
 * invalid when it ends before it starts.
 */
export type AvailabilityStatus =
  | { state: "always" }
  | { state: "invalid"; from: string; until: string }
  | { state: "notYet"; from: string; until: string | null }
  | { state: "open"; from: string | null; until: string | null }
  | { state: "ended"; from: string | null; until: string };

export function availabilityStatus(fromValue: unknown, untilValue: unknown, today: string): AvailabilityStatus {
  const from = dateOf(fromValue);
  const until = dateOf(untilValue);
  if (!from && !until) return { state: "always" };
  if (from && until && until < from) return { state: "invalid", from, until };
  if (from && today < from) return { state: "notYet", from, until };
  if (until && today > until) return { state: "ended", from, until };
  return { state: "open", from, until };
}
