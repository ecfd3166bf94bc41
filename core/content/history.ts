import type { DiffRow } from "./version-diff";

/* What a document's version history shows, shared by the server (server/content/history.ts) and the pages. */

export const HISTORY_PAGE_SIZE = 20;

export interface HistoryEntry {
  versionId: string;
  /** 1 for the first version of the document. */
  number: number;
  createdAt: Date | string;
  /** The saving user's name; null for an API client's save (created_by null) or a deleted account. */
  authorName: string | null;
  /** The number of the bucket's schema version the version was saved with (null: not recorded). */
  schemaVersion: number | null;
  latest: boolean;
  /** Saved by merging a stale save with the newest version (server/content/merge-save.ts). */
  merged: boolean;
}

export interface HistoryPage {
  contentId: string;
  latestVersionId: string;
  /** What exhibits get (docs/publishing.md); null: nothing is published. */
  publishedVersionId: string | null;
  entries: HistoryEntry[];
  total: number;
  page: number;
  pages: number;
}

/** How a compared media value shows: a thumbnail (an image's file, a video's chosen still) and its file name. */
export interface DiffMedia {
  thumbnail: string | null;
  filename: string;
}

/** A referenced document as the diff shows it: its title and page; null where it was deleted or is not visible. */
export type DiffReference = { title: string; href: string } | null;

export interface VersionComparison {
  before: HistoryEntry;
  after: HistoryEntry;
  rows: DiffRow[];
  media: Record<string, DiffMedia>;
  references: Record<string, DiffReference>;
}

/** The pages of a document's history. */
export const historyPaths = (slug: string, contentId: string) => ({
  history: (page = 1) => `/b/${slug}/${contentId}/history${page > 1 ? `?page=${page}` : ""}`,
  compare: (a: string, b: string) => `/b/${slug}/${contentId}/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`,
  compareAction: `/b/${slug}/${contentId}/compare`,
  restoreAction: `/b/${slug}/${contentId}/history`,
  version: (entry: Pick<HistoryEntry, "versionId" | "latest">) => `/b/${slug}/${contentId}/${entry.latest ? "latest" : entry.versionId}`,
});
