import type { Locale } from "../locales";

/** Validation messages by AJV keyword (spec §5), with {{param}} placeholders. */
export const VALIDATION_MESSAGES: Record<Locale, Record<string, string>> = {
  en: {
    required: "This field is required",
    isNotEmpty: "This field is required",
    type: "This field is required",
    minItems: "This list should have minimum {{limit}} item(s)",
    maxItems: "This list can't contain more than {{limit}} item(s)",
    maxLength: "This text can't be longer than {{limit}} characters",
    minLength: "This text should be at least {{limit}} characters",
    minimum: "This value should be at least {{limit}}",
    maximum: "This value can't be more than {{limit}}",
    exclusiveMinimum: "This value should be more than {{limit}}",
    exclusiveMaximum: "This value should be less than {{limit}}",
    multipleOf: "This value should be a multiple of {{multipleOf}}",
    format: "This value is not a valid {{format}}",
    pattern: "This value doesn't have the expected form",
    enum: "Pick one of the options",
    const: "This value is not allowed",
    additionalProperties: "Unknown field: {{additionalProperty}}",
    default: "This value is not valid",
  },
  nl: {
    required: "Dit is een verplicht veld",
    isNotEmpty: "Dit is een verplicht veld",
    type: "Dit is een verplicht veld",
    minItems: "Er moeten minstens {{limit}} items in deze lijst zitten",
    maxItems: "Er mogen maximaal {{limit}} items in deze lijst zitten",
    maxLength: "Deze tekst mag niet langer zijn dan {{limit}} tekens",
    minLength: "Deze tekst moet minstens {{limit}} tekens lang zijn",
    minimum: "Deze waarde moet minstens {{limit}} zijn",
    maximum: "Deze waarde mag niet meer zijn dan {{limit}}",
    exclusiveMinimum: "Deze waarde moet groter zijn dan {{limit}}",
    exclusiveMaximum: "Deze waarde moet kleiner zijn dan {{limit}}",
    multipleOf: "Deze waarde moet een veelvoud zijn van {{multipleOf}}",
    format: "Deze waarde is geen geldige {{format}}",
    pattern: "Deze waarde heeft niet de verwachte vorm",
    enum: "Kies een van de opties",
    const: "Deze waarde is niet toegestaan",
    additionalProperties: "Onbekend veld: {{additionalProperty}}",
    default: "Deze waarde is niet geldig",
  },
};

export function formatMessage(template: string, params: Record<string, unknown>): string {
  return template.replaceAll(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
