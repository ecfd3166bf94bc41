/*
 * The `renderer` values of the screens' own field kinds (spec §3; their data in core/content/cases.ts). Apart from
 * the kinds' code, so that what only recognises such a field (the field kinds' table, the dialect, the screens' page
 * links and requirements, which every page's shell loads) does not bring the clip cards' code along.
 */

/** `renderer: "video-cases"` on a list of `_ref` strings: the chosen cases as clip cards, added through a picker. */
export const VIDEO_CASES_RENDERER = "video-cases";
/** `renderer: "trend-select"` on a `_ref` string: a select of a trends collection whose options show their image. */
export const TREND_SELECT_RENDERER = "trend-select";

/** The top-level properties of a schema with a renderer (the screens find their main fields by it). */
function propertiesWithRenderer(schema: Record<string, unknown>, renderer: string): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(properties)
    .filter(([, property]) => property.renderer === renderer)
    .map(([name]) => name);
}

/** The session's list of cases: the first top-level `renderer: "video-cases"` field. */
export function casesField(schema: Record<string, unknown>): string | null {
  return propertiesWithRenderer(schema, VIDEO_CASES_RENDERER)[0] ?? null;
}
