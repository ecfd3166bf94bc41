// A real S3-protocol server (s3rver) in a child process of its own, so that its work is not the load generator's:
// { endpoint, env, stop() }. env is what a Vitrine server needs to keep its media there.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUCKET = "vitrine-bench";

const PROGRAM = `
const S3rver = require("s3rver");
const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: process.argv[1], configureBuckets: [{ name: process.argv[2] }] });
server.run().then(({ port }) => console.log("s3rver listening on " + port));
`;

export async function startS3Server(tmpDir) {
  const directory = mkdtempSync(path.join(tmpDir ?? os.tmpdir(), "bench-s3-"));
  const child = spawn(process.execPath, ["-e", PROGRAM, directory, BUCKET], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve, reject) => {
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (text) => {
      output += text;
      const match = /s3rver listening on (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`s3rver exited (${code}) before listening`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    pid: child.pid,
    env: {
      MEDIA_STORAGE: "s3",
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
    async stop() {
      child.kill("SIGTERM");
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve)));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
