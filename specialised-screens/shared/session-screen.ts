import type { Message } from "@core/messages";
import type { ScreenDefinition } from "@core/content/screen-table";
import { casesField } from "@core/content/renderers";

/*
 * What the two session screens (sessies, dle-sessies) share of their entries: a session is a list of cases, so their
 * buckets need a video-cases field and several documents.
 */

export function sessionRequirements({ singleton, jsonSchema }: ScreenDefinition): Message[] {
  const errors: Message[] = [];
  if (singleton) errors.push({ key: "screens.errors.notSingleton" });
  if (!casesField(jsonSchema)) errors.push({ key: "screens.errors.casesField" });
  return errors;
}
