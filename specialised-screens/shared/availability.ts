import { availabilityDate } from "./availability-dates";

/*
 * A learning-environment session's availability (dle-sessies, docs/screens.md) as a status for the editor's aside;
 * the dates and their check are in availability-dates.ts.
 */

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
  const from = availabilityDate(fromValue);
  const until = availabilityDate(untilValue);
  if (!from && !until) return { state: "always" };
  if (from && until && until < from) return { state: "invalid", from, until };
  if (from && today < from) return { state: "notYet", from, until };
  if (until && today > until) return { state: "ended", from, until };
  return { state: "open", from, until };
}
