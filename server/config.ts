import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { PASSWORD_MIN_LENGTH } from "@core/auth-schemas";
import { normalizeLocale, SUPPORTED_LOCALES } from "@core/locales";

const booleanFromEnv = z
  .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  /** PostgreSQL connections each server (and each CLI run) keeps at most. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Named prepared statements for the hot queries; false behind PgBouncer's transaction pooling before 1.21. */
  DATABASE_PREPARED_STATEMENTS: booleanFromEnv.default(true),
  DATA_DIR: z.string().min(1).default("./data"),
  /** The embedded database's buffer pool (PostgreSQL units: kB, MB, GB). */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, "must be a size such as 16MB")
    .default("16MB"),
  MEDIA_DIR: z.string().min(1).optional(),
  MEDIA_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
  /** A running media job is renewed every sixth of this; a server silent this long loses its job to another. */
  MEDIA_JOB_LEASE_SECONDS: z.coerce.number().int().min(3).max(3600).default(60),
  /** Where finished media files live: folders of MEDIA_DIR, or an S3-compatible bucket (S3_* below; docs/operations.md). */
  MEDIA_STORAGE: z.enum(["fs", "s3"], { message: "must be fs or s3" }).default("fs"),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  /** An S3-compatible service's URL (MinIO, Ceph, Garage, R2, …); AWS itself when unset. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).optional(),
  /** Without both, the AWS SDK's own lookup (AWS_* variables, an instance role). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** endpoint/bucket/key URLs instead of bucket.endpoint/key: most self-hosted stores need it. */
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
  /** Prepended to every object key, so that several deployments can share one bucket. */
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9._-]+\/)*$/, "must be folder names ending in /, such as vitrine/")
    .default(""),
  /** The delivery API's media URLs redirect to short-lived URLs of the store itself instead of streaming through. */
  S3_PRESIGNED_DELIVERY: booleanFromEnv.default(false),
  FFMPEG_PATH: z.string().min(1).optional(),
  FFPROBE_PATH: z.string().min(1).optional(),
  /** Where ffmpeg and ffprobe are looked up, by the server and its media workers. */
  PATH: z.string().min(1).default("/usr/local/bin:/usr/bin:/bin"),
  VITRINE_JOB_TIME_LIMIT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(24 * 60 * 60 * 1000)
    .default(30 * 60 * 1000),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /**
   * Instead of SESSION_SECRET, to rotate it without signing anyone out: comma-separated, the first signs, every one is
   * accepted (sessions, signed media URLs). Put a new secret first; drop an old one once its sessions have expired.
   */
  SESSION_SECRETS: z
    .string()
    .transform((value) => value.split(",").map((secret) => secret.trim()))
    .pipe(z.array(z.string().min(32, "each secret must be at least 32 characters")).min(1))
    .optional(),
  /**
   * Stopping (SIGTERM): how long /readyz answers 503 while the server still accepts requests, so that a load balancer
   * stops sending it any; then how long requests in flight get to finish before their connections are closed.
   */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  PUBLIC_URL: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).optional(),
  DEFAULT_LOCALE: z
    .string()
    .default("en")
    .transform((value, ctx) => {
      const locale = normalizeLocale(value);
      if (!locale) {
        ctx.addIssue({ code: "custom", message: `must be one of ${SUPPORTED_LOCALES.join(", ")}` });
        return z.NEVER;
      }
      return locale;
    }),
  ALLOW_SIGNUP: booleanFromEnv.default(false),
  PRODUCT_NAME: z.string().min(1).default("Vitrine"),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Outgoing mail (invitations, password resets); without SMTP_URL nothing is mailed. smtp://, smtps:// */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  /** Who users should contact, shown on /support. */
  SUPPORT_EMAIL: z.email({ message: "must be an email address" }).optional(),
  SUPPORT_URL: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).optional(),
  /** The first start's demo admin (server/seed.ts). */
  ADMIN_EMAIL: z.email({ message: "must be an email address" }).optional(),
  /** The delivery API (docs/delivery.md): requests a minute per API client (in-process token bucket); 0: no limit. */
  DELIVERY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(600),
  /** How many servers share that limit: each allows its share (the limit divided by this, rounded up). */
  DELIVERY_RATE_LIMIT_SERVERS: z.coerce.number().int().min(1).max(1000).default(1),
  /** The delivery API's signed media URLs stay valid at least this long (and at most twice as long). */
  DELIVERY_MEDIA_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 60 * 60)
    .default(3600),
  ADMIN_PASSWORD: z.string().min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`).optional(),
  /** Webhooks (docs/webhooks.md): private, loopback and link-local targets are refused unless this is true. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFromEnv.default(false),
  /** The wait after a delivery's first failed attempt; each later one waits four times longer (at most 6 hours). */
  WEBHOOK_RETRY_BASE_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(60 * 60 * 1000)
    .default(30_000),
  /** Attempts a delivery gets before it fails for good. */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  /** Whether this server sends webhook deliveries (any server may record them; one with the dispatcher sends them). */
  WEBHOOK_DISPATCHER: booleanFromEnv.default(true),
  /** How long a receiver may take to answer one delivery. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
});

export type Config = Omit<z.output<typeof envSchema>, "SESSION_SECRET" | "SESSION_SECRETS"> & {
  /** The secret that signs. */
  SESSION_SECRET: string;
  /** Every secret a signature is accepted under, the signing one first. */
  acceptedSessionSecrets: readonly string[];
  /** Whether the secret came from the environment, as several servers need (not generated into DATA_DIR). */
  sessionSecretConfigured: boolean;
  secureCookies: boolean;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses the environment once; an empty string counts as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = Object.fromEntries(Object.keys(envSchema.shape).map((key) => [key, env[key] === "" ? undefined : env[key]]));
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const { SESSION_SECRET, SESSION_SECRETS, ...values } = parsed.data;
  if (values.SMTP_URL && !values.MAIL_FROM) throw new ConfigError(["MAIL_FROM: is required when SMTP_URL is set"]);
  if (values.MEDIA_STORAGE === "s3" && !values.S3_BUCKET) throw new ConfigError(["S3_BUCKET: is required when MEDIA_STORAGE is s3"]);
  if (Boolean(values.S3_ACCESS_KEY_ID) !== Boolean(values.S3_SECRET_ACCESS_KEY))
    throw new ConfigError(["S3_SECRET_ACCESS_KEY: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither"]);
  if (SESSION_SECRET && SESSION_SECRETS) throw new ConfigError(["SESSION_SECRETS: set either SESSION_SECRET or SESSION_SECRETS, not both"]);
  const signing = SESSION_SECRETS?.[0] ?? SESSION_SECRET ?? readOrCreateSecret(values.DATA_DIR);
  return {
    ...values,
    SESSION_SECRET: signing,
    acceptedSessionSecrets: SESSION_SECRETS ?? [signing],
    sessionSecretConfigured: Boolean(SESSION_SECRET ?? SESSION_SECRETS),
    secureCookies: values.PUBLIC_URL?.startsWith("https:") ?? false,
  };
}

/**
 * Servers that share a database must sign with the same secret: one generated into a server's DATA_DIR would sign
 * each server's sessions differently. The command line needs none.
 */
export function checkServerConfig(config: Config): void {
  if (config.DATABASE_URL && !config.sessionSecretConfigured)
    throw new ConfigError([
      "SESSION_SECRET: is required when DATABASE_URL is set (every server on the database signs sessions with it; docs/operations.md)",
    ]);
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      return readFileSync(file, "utf8").trim(); // another server wrote it first
    }
  }
}
