/** Calendar dates (YYYY-MM-DD, UTC) of the forms' expiry fields; no zod, so the browser can check them cheaply. */

/** A calendar date (YYYY-MM-DD) that exists. */
export function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** Today's date in UTC (YYYY-MM-DD): an expiry date may be today or later. */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);
