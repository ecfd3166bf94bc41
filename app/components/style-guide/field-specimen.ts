import type { SubmissionResult } from "@conform-to/react";
import type { FieldKind } from "@core/form/field-kind";
import type { JsonSchema } from "@core/schema/normalize";

/** The states every field kind is shown in. */
export const FIELD_STATES = ["empty", "filled", "error", "disabled", "readOnly"] as const;
export type FieldState = (typeof FIELD_STATES)[number];

/** A field kind's sample, ready to render: built on the server (field-specimens.server.ts). */
export interface FieldSpecimen {
  kind: FieldKind;
  /** The normalised schema of the sample's form: its companions, then the kind's property named after the kind. */
  schema: JsonSchema;
  empty: Record<string, unknown>;
  filled: Record<string, unknown>;
  /** The refused document; the error state starts from it, so that its rows match the reply's. */
  invalid: Record<string, unknown>;
  /** What an edit page's action answers for the invalid value: Conform's reply with the validator's messages. */
  errorResult: SubmissionResult;
}
