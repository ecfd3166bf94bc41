import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

/** `npm run vitrine -- <args>` as a real process (scripts/vitrine.mjs); never throws, reports code and output. */
export async function runVitrine(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["scripts/vitrine.mjs", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, LOG_LEVEL: "silent" },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
