import { randomBytes } from "node:crypto";
import type { Db } from "./db/client";
import { createBucket, type Bucket } from "./content/buckets";
import { createContent } from "./content/store";
import { createUser } from "./accounts/users";
import { DEMO_BUCKETS } from "./demo-content";

export interface SeedResult {
  adminEmail: string;
  generatedPassword: string | null;
}

/**
 * On the first run (no users yet), creates an admin and demo buckets with a
 * few documents, so a new install shows what the product does.
 */
export async function seedDemoContent(
  db: Db,
  options: { adminEmail?: string; adminPassword?: string },
): Promise<SeedResult | null> {
  const { rows } = await db.query<{ any: boolean }>("SELECT EXISTS (SELECT 1 FROM users) AS any");
  if (rows[0]?.any) return null;
  const adminEmail = options.adminEmail ?? "admin@vitrine.local";
  const password = options.adminPassword ?? randomBytes(12).toString("base64url");
  const generatedPassword = options.adminPassword === undefined ? password : null;
  const admin = await createUser(db, {
    name: "Admin",
    email: adminEmail,
    password,
    permissions: ["user", "admin", "dev"],
  });
  let position = 0;
  for (const demo of DEMO_BUCKETS) {
    const bucket: Bucket = await createBucket(db, { ...demo.bucket, position: position++ });
    for (const document of demo.documents) await createContent(db, bucket.id, document, admin.id, { singleton: bucket.singleton });
  }
  return { adminEmail, generatedPassword };
}
