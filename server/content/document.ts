import type { ContentVersion } from "./store";

/*
 * A document as exhibit apps, the API and the CLI see it: its data with `_id` (the version) and `contentId`.
 */

/** A posted document taken apart: the version it was based on, which document, and its data. */
export function splitDocument(document: Record<string, unknown>) {
  const { _id, contentId, language, ...data } = document;
  return {
    baseVersionId: typeof _id === "string" ? _id : undefined,
    contentId: typeof contentId === "string" ? contentId : undefined,
    language: typeof language === "string" ? language : undefined,
    data,
  };
}

/** The document as exhibit apps and the API see it: data plus _id and contentId. */
export function toDocument(version: ContentVersion) {
  return { ...version.data, _id: version.versionId, contentId: version.contentId };
}
