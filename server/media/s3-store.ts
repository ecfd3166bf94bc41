import { createReadStream, createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  missingObject,
  type ByteRange,
  type ObjectName,
  type ObjectStore,
  type PresignOptions,
  type StoreArea,
  type StoredObject,
} from "./object-store";

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible service's URL; AWS's own when absent. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` (most self-hosted stores). */
  forcePathStyle: boolean;
  /** Prepended to every key, so several deployments can share a bucket. */
  prefix: string;
}

/** Parts of a multipart upload, and how many go at once: what an upload holds in memory at most. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 2;

/**
 * The store in an S3-compatible bucket. Files go up from local files as streamed multipart uploads (never a whole
 * file in memory); a move is a server-side copy and a delete.
 */
export class S3Store implements ObjectStore {
  readonly kind = "s3";
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    const config: S3ClientConfig = {
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      // S3-compatible stores differ in the newer checksum headers; send and check them only where S3 requires them.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    };
    if (settings.endpoint) config.endpoint = settings.endpoint;
    if (settings.accessKeyId && settings.secretAccessKey)
      config.credentials = { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey };
    this.client = new S3Client(config);
  }

  private key({ area, name }: ObjectName): string {
    if (!/^[0-9a-f-]{36}(\.[a-z0-9]{1,10})?$/.test(name)) throw new Error(`Not a storage name: ${name}`);
    return `${this.settings.prefix}${area}/${name}`;
  }

  localPath(): null {
    return null;
  }

  async putFile(localPath: string, to: ObjectName): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.key(to), Body: createReadStream(localPath) },
      partSize: PART_BYTES,
      queueSize: PARTS_AT_ONCE,
      leavePartsOnError: false,
    });
    await upload.done();
    await rm(localPath, { force: true });
  }

  async takeFile(from: ObjectName, localPath: string): Promise<void> {
    await this.copyToFile(from, localPath);
    await this.remove(from);
  }

  async copyToFile(from: ObjectName, localPath: string): Promise<void> {
    await pipeline(await this.read(from), createWriteStream(localPath, { flags: "wx" }));
  }

  async move(from: ObjectName, to: ObjectName): Promise<void> {
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.key(to),
          CopySource: `${this.settings.bucket}/${encodeURIComponent(this.key(from)).replace(/%2F/g, "/")}`,
        }),
      );
    } catch (error) {
      throw isMissing(error) ? missingObject(from) : error;
    }
    await this.remove(from);
  }

  async head(object: ObjectName): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.key(object) }));
      return { size: head.ContentLength ?? 0, modifiedMs: head.LastModified?.getTime() ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(object: ObjectName, range?: ByteRange): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.key(object),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      if (!(answer.Body instanceof Readable)) throw new Error("The S3 client answered no stream");
      return answer.Body;
    } catch (error) {
      throw isMissing(error) ? missingObject(object) : error;
    }
  }

  async remove(object: ObjectName): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(object) }));
  }

  async *list(area: StoreArea): AsyncIterable<{ name: string; modifiedMs: number }> {
    const prefix = `${this.settings.prefix}${area}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? [])
        if (item.Key) yield { name: item.Key.slice(prefix.length), modifiedMs: item.LastModified?.getTime() ?? 0 };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async presignedUrl(object: ObjectName, options: PresignOptions): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.key(object),
        ResponseContentType: options.mimetype,
        ResponseContentDisposition: options.disposition,
      }),
      { expiresIn: options.expiresInSeconds },
    );
  }

  destroy(): void {
    this.client.destroy();
  }
}

const isMissing = (error: unknown) => {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === "NoSuchKey" || name === "NotFound" || $metadata?.httpStatusCode === 404;
};
