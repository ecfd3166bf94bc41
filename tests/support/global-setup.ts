import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openPglite, openPostgres } from "@server/db/client";
import { migrate } from "@server/db/migrate";

/**
 * One migrated database per run; each test file copies it (fast, and isolated). The tests of migrations themselves
 * copy an empty one: PGlite's first open of a directory (its initdb) costs seconds, a copy milliseconds.
 */
export default async function setup(project: TestProject) {
  const emptyDir = mkdtempSync(path.join(tmpdir(), "vitrine-empty-template-"));
  await (await openPglite(emptyDir)).close();
  project.provide("pgliteEmptyTemplate", path.join(emptyDir, "pgdata"));
  const templateDir = mkdtempSync(path.join(tmpdir(), "vitrine-template-"));
  cpSync(path.join(emptyDir, "pgdata"), path.join(templateDir, "pgdata"), { recursive: true });
  const db = await openPglite(templateDir);
  await migrate(db);
  await db.close();
  project.provide("pgliteTemplate", path.join(templateDir, "pgdata"));

  const adminUrl = process.env.TEST_DATABASE_URL;
  const pgTemplate = `vitrine_template_${process.pid}`;
  project.provide("pgTemplate", pgTemplate);
  let dropPgTemplate = async () => {};
  if (adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${pgTemplate} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${pgTemplate}`);
    await admin.end();
    const template = openPostgres(withDatabase(adminUrl, pgTemplate));
    await migrate(template);
    await template.close();
    dropPgTemplate = async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${pgTemplate} WITH (FORCE)`);
      await cleanup.end();
    };
  }

  return async () => {
    rmSync(templateDir, { recursive: true, force: true });
    rmSync(emptyDir, { recursive: true, force: true });
    await dropPgTemplate();
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgliteEmptyTemplate: string;
    pgTemplate: string;
  }
}
