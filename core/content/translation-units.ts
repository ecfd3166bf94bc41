import { localeValue, translatedFields, type TextPathSegment } from "./translated-texts";

/*
 * A document's texts for a translator (issue 34): the translated fields that hold plain text (a string that is not a
 * media or document reference nor a choice), each with a stable unit id made from its path. The XLIFF export writes
 * them; its import finds a unit of the file by that id among the document's current ones.
 */

export interface TranslationUnit {
  /** `steps.0.text`: the path's segments joined with dots, each outside [A-Za-z0-9-] escaped (an XML NMTOKEN). */
  id: string;
  /** The path as a JSON pointer without its leading slash: `steps/0/text`, for people. */
  pointer: string;
  path: TextPathSegment[];
  label: string;
  description: string | null;
  maxLength: number | null;
  /** The source locale's text ("" when it has none). */
  source: string;
  /** The target locale's text ("" when it has none). */
  target: string;
}

/** A path segment in an id: letters, digits and "-" as they are, any other character as `_{hex}_`; "" as "_". */
function idSegment(segment: TextPathSegment): string {
  const text = String(segment);
  if (text === "") return "_";
  return Array.from(text, (character) => (/[A-Za-z0-9-]/.test(character) ? character : `_${character.codePointAt(0)?.toString(16)}_`)).join(
    "",
  );
}

export const unitId = (path: readonly TextPathSegment[]): string => path.map(idSegment).join(".");

const pointerOf = (path: readonly TextPathSegment[]) =>
  path.map((segment) => String(segment).replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

const textOf = (value: unknown) => (typeof value === "string" ? value : "");

/** The document's plain translated texts, in the schema's order, with both locales' texts. */
export function translationUnits(schema: unknown, data: unknown, source: string, target: string): TranslationUnit[] {
  return translatedFields(schema, data)
    .filter(({ text }) => text.type === "string" && text._ref === undefined && text.enum === undefined)
    .map((field) => ({
      id: unitId(field.path),
      pointer: pointerOf(field.path),
      path: field.path,
      label: field.label,
      description: typeof field.field.description === "string" && field.field.description ? field.field.description : null,
      maxLength: typeof field.text.maxLength === "number" ? field.text.maxLength : null,
      source: textOf(localeValue(field, source)),
      target: textOf(localeValue(field, target)),
    }));
}

/** Whether a text counts as written: anything but white space. */
export const isWritten = (text: string) => /\S/.test(text);

/** A text's length as the schema's maxLength counts it: in code points. */
export const textLength = (text: string) => Array.from(text).length;
