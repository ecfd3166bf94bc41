const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in URLs are checked before any query: a malformed one is simply not found. */
export function isUuid(value: string | undefined): value is string {
  return typeof value === "string" && UUID.test(value);
}
