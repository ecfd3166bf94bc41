import type { JsonSchema } from "../schema/normalize";
import { fieldKind } from "./field-kind";

/**
 * The starting value of a new document (spec §3, §5): lists start with
 * minItems rows (fixedItems overrides; otherwise 1, a reference list 0),
 * time 00:00:00, colour #000000.
 */
export function initialValue(schema: JsonSchema): unknown {
  const kind = fieldKind(schema);
  switch (kind) {
    case "time":
      return "00:00:00";
    case "color":
      return "#000000";
    case "boolean":
      return false;
    case "object":
    case "translateObject":
    case "disableable": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(properties)) {
        const value = initialValue(child);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case "array":
    case "tags":
    case "texts":
    case "referenceList": {
      const rows =
        typeof schema.fixedItems === "number"
          ? schema.fixedItems
          : typeof schema.minItems === "number"
            ? schema.minItems
            : kind === "referenceList"
              ? 0
              : 1;
      const item = initialValue((schema.items ?? {}) as JsonSchema);
      return Array.from({ length: rows }, () => item ?? "");
    }
    default:
      return undefined;
  }
}
