import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { S3Store } from "@server/media/s3-store";

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the objects: `<directory>/<bucket>/<key>._S3rver_object`. */
  directory: string;
  /** The server settings that put media into this bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A store on the server's bucket, as a Vitrine server with its `env` opens it; `prefix` keeps a test's keys apart. */
export function s3StoreOn(server: Pick<TestS3Server, "endpoint" | "bucket">, prefix = ""): S3Store {
  return new S3Store({
    bucket: server.bucket,
    region: "us-east-1",
    endpoint: server.endpoint,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
    prefix,
  });
}

/**
 * A real S3-protocol server (s3rver: S3's HTTP API, signatures checked, over a folder) on a free port, with one
 * bucket: started by each test file that needs one, as the browser tests start Chromium.
 */
export async function startS3Server(bucket = "vitrine-media"): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), "vitrine-s3-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    env: {
      MEDIA_STORAGE: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
