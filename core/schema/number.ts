const INTEGER_INPUT = /^[+-]?\d+$/;
const NUMBER_INPUT = /^[+-]?\d+([.,]\d*)?$/;

export type NumberInput = { kind: "empty" } | { kind: "invalid" } | { kind: "value"; value: number };

/**
 * Spec §5: an integer is an optional sign plus digits; a number may add a
 * decimal part with a comma or a dot (a comma becomes a dot). Empty clears.
 */
export function parseNumberInput(text: string, type: "integer" | "number"): NumberInput {
  const trimmed = text.trim();
  if (trimmed === "") return { kind: "empty" };
  const pattern = type === "integer" ? INTEGER_INPUT : NUMBER_INPUT;
  if (!pattern.test(trimmed)) return { kind: "invalid" };
  const value = Number(trimmed.replace(",", "."));
  return Number.isFinite(value) ? { kind: "value", value } : { kind: "invalid" };
}

/** What an input shows after the user typed `text`: invalid input reverts to the last valid value. */
export function acceptNumberInput(text: string, type: "integer" | "number", last: number | undefined): number | undefined {
  const parsed = parseNumberInput(text, type);
  if (parsed.kind === "empty") return undefined;
  if (parsed.kind === "invalid") return last;
  return parsed.value;
}

export function defaultStep(type: "integer" | "number"): number {
  return type === "integer" ? 1 : 0.1;
}

/** Decimals of a step as written: 0.05 → 2, 1e-7 → 7, 1.5e-7 → 8, 5 → 0. */
export function decimalsOf(step: number): number {
  const [mantissa = "", exponent = "0"] = String(Math.abs(step)).split("e");
  const fraction = mantissa.split(".")[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/**
 * Rounds half away from zero to `decimals` decimals, on the decimal digits
 * rather than the binary value (0.35 is 0.34999… in binary: toFixed(1) gives
 * 0.3, this gives 0.4).
 */
function roundTo(value: number, decimals: number): number {
  const text = String(Math.abs(value));
  if (text.includes("e")) return Number(value.toFixed(Math.min(decimals, 100)));
  const rounded = Number(`${Math.round(Number(`${text}e${decimals}`))}e-${decimals}`);
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}

/** The plus and minus buttons: value ± step, rounded to the step's decimals. */
export function stepValue(value: number | undefined, step: number, direction: 1 | -1): number {
  return roundTo((value ?? 0) + direction * step, decimalsOf(step));
}
