import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openPglite, openPostgres } from "../../server/db/client";
import { migrate } from "../../server/db/migrate";

export const PG_TEMPLATE = "vitrine_test_template";

/** One migrated database per run; each test file copies it (fast, and isolated). */
export default async function setup(project: TestProject) {
  const templateDir = mkdtempSync(path.join(tmpdir(), "vitrine-template-"));
  const db = await openPglite(templateDir);
  await migrate(db);
  await db.close();
  project.provide("pgliteTemplate", path.join(templateDir, "pgdata"));

  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${PG_TEMPLATE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${PG_TEMPLATE}`);
    await admin.end();
    const template = openPostgres(withDatabase(adminUrl, PG_TEMPLATE));
    await migrate(template);
    await template.close();
  }

  return () => rmSync(templateDir, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
