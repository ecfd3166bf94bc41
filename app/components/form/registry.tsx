import type { ComponentType } from "react";
import type { FieldKind } from "../../../core/form/field-kind";
import type { FieldProps } from "./field-shell";
import { DisableableField, ObjectField, TranslateObjectField } from "./group-fields";
import { FileField, ImageField, VideoField } from "./media/media-field";
import { InlineField } from "./inline-field";
import { PopupField } from "./popup-field";
import { VideoCasesField } from "../clip-cards/cases-field";
import { TrendSelectField } from "../clip-cards/trend-select";
import { TrendListField } from "../clip-cards/trend-list";
import { ArrayField, TextsField } from "./list-fields";
import { ReferenceField } from "./reference-field";
import { ReferenceListField } from "./reference-list-field";
import { TagsField } from "./tags-field";
import {
  BooleanField, ColorField, DateField, EnumDataField, EnumField, NumberField, TextareaField, TextField, TimeField,
} from "./simple-fields";

/** One entry per field kind: a kind without a component does not compile. */
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
  reference: ReferenceField,
  tags: TagsField,
  array: ArrayField,
  referenceList: ReferenceListField,
  texts: TextsField,
  object: ObjectField,
  translateObject: TranslateObjectField,
  disableable: DisableableField,
  popup: PopupField,
  inline: InlineField,
  image: ImageField,
  video: VideoField,
  file: FileField,
  videoCases: VideoCasesField,
  trendSelect: TrendSelectField,
  trendList: TrendListField,
};
