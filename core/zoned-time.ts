/*
 * A wall-clock time in a named time zone (an IANA zone such as Europe/Amsterdam) to and from an instant: what a
 * datetime-local input (YYYY-MM-DDTHH:mm, no zone) means where the exhibits are. Intl knows the zones' rules; the
 * offset at an instant is read from its formatting of that instant.
 */

import { dateTimeFormat } from "./date-formats";

const DAY = 86_400_000;
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

function partsFormat(zone: string): Intl.DateTimeFormat {
  return dateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
}

/** The wall clock of `zone` at `instant`, as milliseconds of a UTC clock showing the same numbers. */
function wallClock(instant: number, zone: string): number {
  const parts = Object.fromEntries(
    partsFormat(zone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
}

export function isTimeZone(zone: string): boolean {
  try {
    partsFormat(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant at which `zone`'s clocks show `local` (YYYY-MM-DDTHH:mm); null when it is not such a time or not a
 * date. A time the clocks skip (the hour a summer time starts) answers the instant an hour later's clocks show; a time
 * they show twice (the hour it ends), the first.
 */
export function zonedTimeToInstant(local: string, zone: string): Date | null {
  const match = LOCAL_TIME.exec(local);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // The zone's offsets a day before and a day after: one offset, or the two around a change of the clocks.
  const [before, after] = [asUtc - DAY, asUtc + DAY].map((instant) => wallClock(instant, zone) - instant) as [number, number];
  const shown = [asUtc - before, asUtc - after].filter((instant) => wallClock(instant, zone) === asUtc);
  // None: a time the clocks skip, read with the offset before the change (an hour later on the clocks after it).
  return new Date(shown.length ? Math.min(...shown) : asUtc - before);
}

/** What a datetime-local input shows for `instant` in `zone`: YYYY-MM-DDTHH:mm. */
export function instantToZonedTime(instant: Date, zone: string): string {
  return new Date(wallClock(instant.getTime(), zone)).toISOString().slice(0, 16);
}
