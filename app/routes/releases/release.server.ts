import type { AppLoadContext } from "react-router";
import type { User } from "@server/accounts/users";
import { isBucketVisible } from "@server/content/buckets";
import { getRelease } from "@server/content/releases";
import { releaseChanges, releaseUnpublishedReferences } from "@server/content/release-references";
import { getRequestState } from "@server/web/request-state";
import { bucketName } from "@core/content/bucket-name";
import { historyPaths } from "@core/content/history";
import { savedDocumentPath } from "@core/content/screens";
import { isReleaseEditable } from "@core/content/release";
import { exhibitTimeZone, releaseRefusal } from "./releases.server";

/** What the release page shows (app/routes/releases/release.tsx): the release, its documents and what they carry. */
export async function releasePage(request: Request, context: AppLoadContext, user: User, releaseId: string) {
  const release = await getRelease(context.db, releaseId).catch((error: unknown) => {
    releaseRefusal(error); // a release not found: 404
    throw error;
  });
  const { locale } = await getRequestState(request, context);
  const editable = isReleaseEditable(release.state);
  const changes = editable ? await releaseChanges(context.db, user, release.id) : new Map<string, string[]>();
  const visible = release.items.filter((item) => isBucketVisible(item.bucket, user));
  const references = editable ? await releaseUnpublishedReferences(context.db, user, release.id) : [];
  return {
    release: {
      id: release.id,
      name: release.name,
      state: release.state,
      scheduledAt: release.scheduledAt?.toISOString() ?? null,
      scheduledBy: release.scheduledBy,
      publishedAt: release.publishedAt?.toISOString() ?? null,
      publishedBy: release.publishedBy,
      rolledBackAt: release.rolledBackAt?.toISOString() ?? null,
      rolledBackBy: release.rolledBackBy,
      createdAt: release.createdAt.toISOString(),
      createdBy: release.createdBy,
      itemCount: release.itemCount,
    },
    editable,
    zone: exhibitTimeZone(),
    hiddenItems: release.items.length - visible.length,
    items: visible.map((item) => {
      const paths = historyPaths(item.bucket.slug, item.contentId);
      // Before it goes live: against what exhibits show now; after: what it published against what was before.
      const [from, to] = editable
        ? [item.document.publishedVersionId, item.releaseVersionId]
        : [item.previousVersionId, item.publishedVersionId];
      return {
        contentId: item.contentId,
        title: item.title,
        bucketName: bucketName(item.bucket, locale),
        documentPath: savedDocumentPath(item.bucket, item.contentId),
        newest: item.versionId === null && editable,
        versionNumber: item.releaseVersionNumber,
        state: item.document.state,
        changes: !from ? ("new" as const) : from === to ? ("same" as const) : (changes.get(item.contentId) ?? []),
        comparePath: from && to && from !== to ? paths.compare(from, to) : null,
      };
    }),
    references: references.map((reference) => ({
      contentId: reference.contentId,
      title: reference.title,
      state: reference.state,
      bucketName: bucketName(reference.bucket, locale),
    })),
  };
}
