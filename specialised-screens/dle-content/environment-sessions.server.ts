import type { Queryable } from "@server/db/client";
import type { User } from "@server/accounts/users";
import { isBucketVisible, type Bucket } from "@server/content/buckets";
import { documentTitle } from "@core/content/title";
import { documentPath, overviewPath, type ScreenName } from "@core/content/screens";
import type { SessionBucketLinks } from "./dle-content";
import { bucketName } from "@core/content/bucket-name";
import { normalizeLocale } from "@core/locales";

/** The screens whose buckets hold a learning environment's sessions, in the order the dle-content screen lists them. */
const SESSION_SCREENS: readonly ScreenName[] = ["dle-sessies", "sessies"];

/** How many session titles each bucket shows. */
export const FIRST_SESSIONS = 3;

/**
 * The links from a learning environment's page to its sessions: every bucket of a sessions screen the user may
 * see (spec §6: private buckets and buckets outside the user's list are left out), with its number of sessions
 * and its first few in the order the dle-sessies overview stores.
 */
/** Titles in the reader's language where the session has it, else in the bucket's first locale; buckets by their name in that language. */
export async function loadEnvironmentSessions(db: Queryable, user: Pick<User, "buckets">, locale: string): Promise<SessionBucketLinks[]> {
  const { rows } = await db.query<
    Pick<Bucket, "id" | "slug" | "name" | "names" | "singleton" | "private" | "screen" | "jsonSchema" | "locales"> & { count: string }
  >(
    `SELECT b.id, b.slug, b.name, b.names, b.singleton, b.private, b.screen, b.json_schema AS "jsonSchema", b.locales,
       (SELECT count(*) FROM contents c WHERE c.bucket_id = b.id) AS count
     FROM buckets b WHERE b.screen = ANY($1::text[]) ORDER BY array_position($1::text[], b.screen), b.position, b.name`,
    [SESSION_SCREENS],
  );
  const visible = rows.filter((bucket) => isBucketVisible(bucket, user));
  return Promise.all(
    visible.map(async (bucket) => {
      const { rows: sessions } = await db.query<{ contentId: string; data: Record<string, unknown> }>(
        `SELECT c.content_id AS "contentId", v.data FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
         WHERE c.bucket_id = $1 ORDER BY c.position ASC NULLS LAST, c.updated_at DESC, c.content_id DESC LIMIT ${FIRST_SESSIONS}`,
        [bucket.id],
      );
      return {
        slug: bucket.slug,
        name: bucketName(bucket, normalizeLocale(locale) ?? "en"),
        screen: bucket.screen,
        href: overviewPath(bucket),
        count: Number(bucket.count),
        first: sessions.map((session) => ({
          title: documentTitle(session.data, bucket.jsonSchema, [locale, ...bucket.locales]),
          href: documentPath(bucket, session.contentId),
        })),
      };
    }),
  );
}
