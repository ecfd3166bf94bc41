import type { ComponentType } from "react";
import type { FieldKind } from "@core/form/field-kind";
import type { FieldProps } from "./field-shell";
import { DisableableField, ObjectField, TranslateObjectField } from "./group-fields";
import { ArrayField, TextsField } from "./list-fields";
import { ON_DEMAND_FIELDS } from "./on-demand-fields";
import {
  BooleanField,
  ColorField,
  DateField,
  EnumDataField,
  EnumField,
  NumberField,
  TextareaField,
  TextField,
  TimeField,
} from "./simple-fields";

/**
 * One entry per field kind: a kind without a component does not compile. The kinds most forms use come with the
 * page; the others (on-demand-fields.tsx) only with a form that renders them.
 */
export const FIELD_COMPONENTS: Record<FieldKind, ComponentType<FieldProps>> = {
  text: TextField,
  textarea: TextareaField,
  number: NumberField,
  integer: NumberField,
  boolean: BooleanField,
  date: DateField,
  time: TimeField,
  color: ColorField,
  enum: EnumField,
  enumData: EnumDataField,
  array: ArrayField,
  texts: TextsField,
  object: ObjectField,
  translateObject: TranslateObjectField,
  disableable: DisableableField,
  ...ON_DEMAND_FIELDS,
};
