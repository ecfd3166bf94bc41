import { useTranslation } from "react-i18next";
import { ReleaseTime } from "~/components/releases/release-badge";
import type { releasePage } from "~/routes/releases/release.server";

/*
 * A release's facts under its heading on /releases/{id}: who created it and when, and when it is scheduled, was
 * published or rolled back, in the exhibits' time zone.
 */

type ReleaseData = Awaited<ReturnType<typeof releasePage>>;

export function ReleaseFacts({ release, zone }: { release: ReleaseData["release"]; zone: string }) {
  const { t } = useTranslation();
  const line = (key: "createdBy" | "scheduledFor" | "publishedOn" | "rolledBackOn", iso: string, name: string | null) => (
    <li>
      {t(`releases.${key}`, { when: "\u0000", name: name ?? "" })
        .split("\u0000")
        .flatMap((part, index) => (index === 0 ? [part] : [<ReleaseTime key={key} iso={iso} zone={zone} />, part]))}
    </li>
  );
  return (
    <ul className="release-facts muted">
      {line("createdBy", release.createdAt, release.createdBy)}
      {release.scheduledAt && (release.state === "scheduled" || release.state === "open")
        ? line("scheduledFor", release.scheduledAt, null)
        : null}
      {release.publishedAt ? line("publishedOn", release.publishedAt, release.publishedBy) : null}
      {release.rolledBackAt ? line("rolledBackOn", release.rolledBackAt, release.rolledBackBy) : null}
    </ul>
  );
}
