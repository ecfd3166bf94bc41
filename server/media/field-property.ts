import { mediaKindOfSchema } from "@core/form/field-kind";
import type { MediaKind } from "@core/media/bounds";
import { MEDIA_RULE_KEYWORDS } from "@core/schema/ajv";
import { schemaNodes } from "@core/schema/walk";
import { HttpError } from "@server/errors";

export type MediaProperty = Record<string, unknown>;

/** Every property of this media kind in a schema: properties and list items, at any depth. */
export function mediaPropertiesOf(schema: unknown, kind: MediaKind): MediaProperty[] {
  return [...schemaNodes(schema)].map(({ node }) => node).filter((node) => mediaKindOfSchema(node) === kind);
}

const rulesOf = (property: MediaProperty) =>
  JSON.stringify(MEDIA_RULE_KEYWORDS.map((name) => (property[name] === undefined ? null : property[name])));

function parseSent(sent: unknown): MediaProperty | undefined {
  let value = sent;
  if (typeof value === "string") {
    if (value.trim() === "") return undefined;
    try {
      value = JSON.parse(value);
    } catch {
      throw new HttpError(400, "uploadProperties.notObject");
    }
  }
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw new HttpError(400, "uploadProperties.notObject");
  return value as MediaProperty;
}

/**
 * The bucket schema's property whose rules an upload or edit of this kind follows. The client names it
 * by sending the field's schema property (`properties`, spec §3 upload form fields); the rules always
 * come from the bucket's own schema, so a client can never loosen them. Without `properties` the
 * bucket's fields of this kind must all have the same rules.
 */
export function resolveMediaProperty(jsonSchema: unknown, kind: MediaKind, sent: unknown): MediaProperty {
  const candidates = mediaPropertiesOf(jsonSchema, kind);
  const [first] = candidates;
  if (!first) throw new HttpError(400, "uploadProperties.noField", { kind: { key: `media.types.${kind}` } });
  const wanted = parseSent(sent);
  if (wanted) {
    const rules = rulesOf(wanted);
    const match = candidates.find((candidate) => rulesOf(candidate) === rules);
    if (!match) throw new HttpError(400, "uploadProperties.noMatch", { kind: { key: `media.types.${kind}` } });
    return match;
  }
  const distinct = new Set(candidates.map(rulesOf));
  if (distinct.size > 1) throw new HttpError(400, "uploadProperties.ambiguous", { kind: { key: `media.types.${kind}` } });
  return first;
}

/** Crop and recrop are offered only by image fields with enableCrop or forceCrop (spec §2). */
export const cropAllowed = (property: MediaProperty) => property.enableCrop === true || property.forceCrop === true;
