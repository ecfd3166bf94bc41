import type { Message } from "@core/messages";
import { isPlainObject } from "@core/plain-object";
import type { ScreenName } from "@core/content/screens";

/*
 * A learning-environment session's availability dates (dle-sessies, docs/screens.md): `availableFrom` and
 * `availableUntil` (format date, both optional), and the one check that refuses an end before the start (a rule of
 * specialised-screens/dle-sessies/rules.ts: the form's resolver and every save run it). Apart from the status the
 * editor's aside tells (availability.ts), since every page's shell carries the screens' rules.
 */

export const AVAILABLE_FROM = "availableFrom";
export const AVAILABLE_UNTIL = "availableUntil";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** The value when it is a date (YYYY-MM-DD), else null. */
export const availabilityDate = (value: unknown) => (typeof value === "string" && DATE.test(value) ? value : null);

/** The document's errors only a screen knows of, by field: on dle-sessies, an end before the start. */
export function screenFieldErrors(screen: ScreenName | undefined, data: unknown): Record<string, Message[]> {
  if (screen !== "dle-sessies" || !isPlainObject(data)) return {};
  const from = availabilityDate(data[AVAILABLE_FROM]);
  const until = availabilityDate(data[AVAILABLE_UNTIL]);
  if (from && until && until < from) return { [AVAILABLE_UNTIL]: [{ key: "content.untilBeforeFrom", params: { from } }] };
  return {};
}
