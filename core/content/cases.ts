import type { PublicationState } from "./publication";
import { isPlainObject } from "@core/plain-object";
import { titleText } from "./title";

/*
 * Video cases (spec §3 Case item: title, subtitle, thumbnail.contentId) as clip cards, and trend options with their
 * image: what the server loads for the edit page, what GET …/any/content?populate=true answers, and the one search
 * both the picker modal (browser) and the no-JavaScript picker (server) run. The renderers' names are in
 * core/content/renderers.ts.
 */

/** A populated media reference that could not be resolved (gone, or in a bucket the reader may not see). */
export interface UnresolvedMedia {
  contentId: string;
  missing: true;
}

/** One case as a clip card. */
export interface CaseCard {
  contentId: string;
  /** The version shown (the DELETE call names it). */
  _id: string;
  title: string;
  subtitle: string;
  /** The chosen still of the case's video (or the image of an image thumbnail); null while none exists. */
  still: string | null;
  /** The thumbnail video's contentId, or null when the case has none. */
  thumbnailId: string | null;
  /** True while the thumbnail's jobs run (its stills are not there yet). */
  processing: boolean;
  /** The case's video as a player needs it: null without a video (or one the reader may not see). */
  video: CaseVideo | null;
  /** What exhibits get of the case (docs/publishing.md), where the page loaded it. */
  state?: PublicationState;
}

/** A case's video: its URL, whether it plays yet (every job done), and its length in seconds (ffprobe's). */
export interface CaseVideo {
  url: string;
  ready: boolean;
  duration: number | null;
}

/** A trend as an option: its title and image. */
export interface TrendOption {
  value: string;
  label: string;
  image: string | null;
  /** What exhibits get of the trend (docs/publishing.md), where the page loaded it. */
  state?: PublicationState;
}

/** The clip cards or trend options of one collection; slug null when the user may not see it. */
export interface CardCollection {
  slug: string | null;
  cards: CaseCard[];
}

export interface TrendCollection {
  slug: string | null;
  options: TrendOption[];
}

/** What the edit page loads for its video-cases and trend-select fields, by collection. */
export interface ClipCardData {
  cases: Record<string, CardCollection>;
  trends: Record<string, TrendCollection>;
}

/** The picture a populated media value shows: a video's chosen still, an image itself. */
export function mediaPicture(value: unknown): string | null {
  if (!isPlainObject(value) || value.missing === true) return null;
  if (typeof value.still === "string" && value.still) return value.still;
  if (value.kind === "image" && typeof value.url === "string") return value.url;
  return null;
}

/** A populated case document (GET …/any/content?populate=true) as a clip card. */
export function caseCardOf(document: Record<string, unknown>, locales: readonly string[] = []): CaseCard | null {
  const contentId = document.contentId;
  const id = document._id;
  if (typeof contentId !== "string" || typeof id !== "string") return null;
  const thumbnail = document.thumbnail;
  const thumbnailId =
    isPlainObject(thumbnail) && typeof thumbnail.contentId === "string"
      ? thumbnail.contentId
      : typeof thumbnail === "string"
        ? thumbnail
        : null;
  return {
    contentId,
    _id: id,
    title: titleText(document.title, locales),
    subtitle: titleText(document.subtitle, locales),
    still: mediaPicture(thumbnail),
    thumbnailId,
    processing: isPlainObject(thumbnail) && thumbnail.status === "processing",
    video: caseVideoOf(thumbnail),
  };
}

function caseVideoOf(thumbnail: unknown): CaseVideo | null {
  if (!isPlainObject(thumbnail) || thumbnail.missing === true || thumbnail.kind !== "video" || typeof thumbnail.url !== "string")
    return null;
  const duration =
    typeof thumbnail.duration === "number" && Number.isFinite(thumbnail.duration) && thumbnail.duration > 0 ? thumbnail.duration : null;
  return { url: thumbnail.url, ready: thumbnail.status === "completed", duration };
}

/** A length in seconds as m:ss (h:mm:ss from an hour), rounded to the second. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const s = String(total % 60).padStart(2, "0");
  const m = Math.floor(total / 60) % 60;
  const h = Math.floor(total / 3600);
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** The picker's search: every word of the query in the title or the subtitle, case and accents ignored. */
export function matchesCaseSearch(card: Pick<CaseCard, "title" | "subtitle">, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const text = fold(`${card.title} ${card.subtitle}`);
  return words.every((word) => text.includes(word));
}

const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** The cases' search box may not grow without bound (it is echoed into the page). */
export const CASE_SEARCH_MAX = 200;
