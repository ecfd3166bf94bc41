/** `/rooms/0/title/nl` → `rooms[0].title.nl`: the form field's name for an AJV instance path. */
export function pointerToName(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((name, segment) => (/^\d+$/.test(segment) ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment), "");
}

/** `rooms[0].title.nl` → ["rooms", 0, "title", "nl"] */
export function nameToSegments(name: string): Array<string | number> {
  const segments: Array<string | number> = [];
  for (const match of name.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    segments.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  }
  return segments;
}
