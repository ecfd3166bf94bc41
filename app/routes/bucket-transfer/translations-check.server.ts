import type { Bucket } from "@server/content/buckets";
import type { TranslationCheck, TranslationProblem } from "@server/content/translation-import";
import { savedDocumentPath } from "@core/content/screens";
import { translateMessage } from "@core/messages";
import type { Locale } from "@core/locales";
import type { ProblemView, TranslationCheckView } from "~/components/translations-report";

/* The translations page's check and outcome as the page shows them: messages in words, lists cut to a page. */

/** The most texts to fill, and problems, a page lists; the rest are counted. */
const LISTED = 200;

export function problemViews(bucket: Bucket, problems: readonly TranslationProblem[], locale: Locale): ProblemView[] {
  // The blocking ones first: they are what stops the file.
  const ordered = [...problems.filter((problem) => problem.blocking), ...problems.filter((problem) => !problem.blocking)];
  return ordered.slice(0, LISTED).map((problem) => ({
    title: problem.title,
    field: problem.field,
    message: translateMessage(locale, problem.message),
    blocking: problem.blocking,
    href: problem.contentId ? savedDocumentPath(bucket, problem.contentId) : null,
  }));
}

export function checkView(
  bucket: Bucket,
  file: { id: string; fileName: string },
  check: TranslationCheck,
  locale: Locale,
): TranslationCheckView {
  const fills = check.documents.flatMap((document) =>
    document.fills.map((fill) => ({
      title: document.title,
      field: fill.unit.label,
      text: fill.text,
      href: savedDocumentPath(bucket, document.contentId),
    })),
  );
  return {
    fileId: file.id,
    fileName: file.fileName,
    source: check.source,
    target: check.target,
    fillCount: fills.length,
    documentCount: check.documents.length,
    unchanged: check.unchanged,
    untranslated: check.untranslated,
    fills: fills.slice(0, LISTED),
    problems: problemViews(bucket, check.problems, locale),
    problemCount: check.problems.length,
    blocked: check.blocked,
  };
}
