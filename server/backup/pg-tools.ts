import { spawn } from "node:child_process";
import { BackupError } from "./archive";

/*
 * PostgreSQL's client tools (pg_dump, pg_restore), found on PATH. pg_dump refuses a server newer than itself, and
 * pg_restore an archive written by a newer pg_dump: both are checked first, so the operator reads which version to
 * install rather than the tool's own refusal halfway.
 */

export type PgTool = "pg_dump" | "pg_restore";

/** Debian's and most distributions' package for a major version's client tools. */
const installHint = (major: number) =>
  `install PostgreSQL ${major}'s client tools (Debian: postgresql-client-${major}) and put them on PATH`;

/** Runs a tool to its end; resolves with what it wrote to stdout, rejects with its stderr as the message. */
export function runTool(tool: PgTool, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-8000)));
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "ENOENT" ? new BackupError(`${tool} was not found on PATH: install PostgreSQL's client tools.`) : error),
    );
    child.once("close", (code, signal) => {
      if (code === 0) resolve(stdout);
      else reject(new BackupError(`${tool} failed (${signal ?? `exit code ${code}`}): ${stderr.trim() || "no message"}`));
    });
  });
}

/** The major version a tool reports (`pg_dump (PostgreSQL) 15.20 …` → 15). */
export async function toolMajorVersion(tool: PgTool): Promise<number> {
  const output = await runTool(tool, ["--version"]);
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(output);
  if (!match) throw new BackupError(`${tool} --version answered something unexpected: ${output.trim()}`);
  return Number(match[1]);
}

/** Refuses a tool older than `major` (the server's, or the pg_dump that wrote the archive). */
export async function requireToolVersion(tool: PgTool, major: number, of: string): Promise<number> {
  const found = await toolMajorVersion(tool).catch((error: unknown) => {
    if (error instanceof BackupError && error.message.includes("not found"))
      throw new BackupError(`${error.message.slice(0, -1)} (version ${major} or later).`);
    throw error;
  });
  if (found < major) throw new BackupError(`${tool} is version ${found}, older than ${of} (${major}): ${installHint(major)}.`);
  return found;
}

/**
 * The tool's connection: the URL without its password, which goes in PGPASSWORD instead, so that it does not show
 * in the process list.
 */
export function connectionOf(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  try {
    const url = new URL(databaseUrl);
    if (!url.password) return { dbname: databaseUrl, env: process.env };
    const password = decodeURIComponent(url.password);
    url.password = "";
    return { dbname: url.toString(), env: { ...process.env, PGPASSWORD: password } };
  } catch {
    return { dbname: databaseUrl, env: process.env };
  }
}
