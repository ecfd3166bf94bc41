// The impact preview of a schema change: its report, its progress, the save's confirmation and the streaming hook.
export { ConfirmBreakingChange } from "./confirm-breaking";
export { SchemaImpactProgress, SchemaImpactReport } from "./report";
export { useSchemaImpact, type SchemaImpactState } from "./use-schema-impact";
