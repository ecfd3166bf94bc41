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

function decimalsOf(step: number): number {
  const text = String(step);
  if (text.includes("e-")) return Number(text.split("e-")[1]);
  return text.includes(".") ? text.split(".")[1]!.length : 0;
}

/** The plus and minus buttons: value ± step, rounded to the step's decimals. */
export function stepValue(value: number | undefined, step: number, direction: 1 | -1): number {
  const decimals = decimalsOf(step);
  return Number(((value ?? 0) + direction * step).toFixed(decimals));
}
