/*
 * What the session overviews (/sessies/{bucket}, /dle-sessies/{bucket}) show of a session: its clip card (the first
 * case's still, the number of cases, the cases' total duration) and, for a learning session, when it is available.
 * Shared by the server (which decides "today") and the page (which puts it into words).
 */

import type { PublicationState } from "@core/content/publication";

/** One session on an overview page. */
export interface SessionCard {
  contentId: string;
  versionId: string;
  title: string;
  /** The first case's still (its video's chosen still), null when it has none. */
  still: string | null;
  /** The cases the session names that still exist. */
  caseCount: number;
  /** The sum of the cases' video durations in seconds; null when one of them (or all: no cases) is unknown. */
  duration: number | null;
  /** A learning session's availability; null on the sessies screen. */
  availability: Availability | null;
  /** What exhibits get of it (docs/publishing.md). */
  state: PublicationState;
}

/** The availability fields of a learning session, found by name (docs/screens.md). */
export const AVAILABLE_FROM = "availableFrom";
export const AVAILABLE_UNTIL = "availableUntil";

export type AvailabilityState = "always" | "notYet" | "open" | "noLonger";

export interface Availability {
  /** ISO dates (YYYY-MM-DD) or null. */
  from: string | null;
  until: string | null;
  state: AvailabilityState;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isoDate = (value: unknown): string | null =>
  typeof value === "string" && ISO_DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? value : null;

/** A session's availability on `today` (YYYY-MM-DD): both ends count as available days. */
export function availabilityOf(data: Record<string, unknown>, today: string): Availability {
  const from = isoDate(data[AVAILABLE_FROM]);
  const until = isoDate(data[AVAILABLE_UNTIL]);
  let state: AvailabilityState = "open";
  if (!from && !until) state = "always";
  else if (from && today < from) state = "notYet";
  else if (until && today > until) state = "noLonger";
  return { from, until, state };
}

/** A duration as m:ss, or h:mm:ss from an hour on (rounded to the second). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** Where a moved session goes: right before or right after another one. */
export type MoveTarget = { before: string } | { after: string };

/**
 * The order after moving `id` next to its target, or null when either is not in the order (deleted, or never
 * there). The target names what the editor saw, so a move made on a stale view still puts the session where the
 * editor dropped it relative to its neighbour.
 */
export function movedOrder(order: readonly string[], id: string, target: MoveTarget): string[] | null {
  const anchor = "before" in target ? target.before : target.after;
  if (anchor === id || !order.includes(id) || !order.includes(anchor)) return null;
  const rest = order.filter((candidate) => candidate !== id);
  const at = rest.indexOf(anchor) + ("before" in target ? 0 : 1);
  return [...rest.slice(0, at), id, ...rest.slice(at)];
}
