/*
 * The `renderer` values of the screens' own field kinds (spec §3; their data in core/content/cases.ts). Apart from
 * the kinds' code, so that what only recognises such a field (the field kinds' table, the dialect, the screens' page
 * links, which every page's top bar loads) does not bring the clip cards' code along.
 */

/** `renderer: "video-cases"` on a list of `_ref` strings: the chosen cases as clip cards, added through a picker. */
export const VIDEO_CASES_RENDERER = "video-cases";
/** `renderer: "trend-select"` on a `_ref` string: a select of a trends collection whose options show their image. */
export const TREND_SELECT_RENDERER = "trend-select";
