import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkServerConfig, ConfigError, loadConfig } from "@server/config";

/* One zod schema over the environment (server/config.ts, docs/configuration.md). */

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "vitrine-config-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

const SECRET = "s".repeat(32);

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    const config = loadConfig({ SESSION_SECRET: SECRET });
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      DATA_DIR: "./data",
      DEFAULT_LOCALE: "en",
      ALLOW_SIGNUP: false,
      PRODUCT_NAME: "Vitrine",
      TRUST_PROXY: 0,
      LOG_LEVEL: "info",
      MEDIA_WORKERS: 1,
      PATH: "/usr/local/bin:/usr/bin:/bin",
      VITRINE_JOB_TIME_LIMIT_MS: 30 * 60 * 1000,
      secureCookies: false,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.ADMIN_EMAIL).toBeUndefined();
    expect(config.ADMIN_PASSWORD).toBeUndefined();
  });

  it("reads the search path, the job time limit and the demo admin from the environment", () => {
    expect(
      loadConfig({
        SESSION_SECRET: SECRET,
        PATH: "/opt/ffmpeg/bin:/usr/bin",
        VITRINE_JOB_TIME_LIMIT_MS: "90000",
        ADMIN_EMAIL: "owner@example.org",
        ADMIN_PASSWORD: "long enough",
      }),
    ).toMatchObject({
      PATH: "/opt/ffmpeg/bin:/usr/bin",
      VITRINE_JOB_TIME_LIMIT_MS: 90_000,
      ADMIN_EMAIL: "owner@example.org",
      ADMIN_PASSWORD: "long enough",
    });
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://localhost/x"],
    ["SESSION_SECRET", "too-short"],
    ["PUBLIC_URL", "ftp://cms.example.org"],
    ["DEFAULT_LOCALE", "fr"],
    ["ALLOW_SIGNUP", "maybe"],
    ["LOG_LEVEL", "loud"],
    ["TRUST_PROXY", "-1"],
    ["MEDIA_WORKERS", "17"],
    ["VITRINE_JOB_TIME_LIMIT_MS", "soon"],
    ["VITRINE_JOB_TIME_LIMIT_MS", "10"],
    ["ADMIN_EMAIL", "admin"],
    ["ADMIN_PASSWORD", "short"],
  ])("refuses %s=%s with a message naming the variable", (name, value) => {
    const load = () => loadConfig({ SESSION_SECRET: SECRET, [name]: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(new RegExp(`Invalid configuration:\\n  - ${name}: `));
  });

  it("names every bad variable at once", () => {
    try {
      loadConfig({ PORT: "x", LOG_LEVEL: "loud", SESSION_SECRET: SECRET });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems.map((problem) => problem.split(":")[0])).toEqual(["PORT", "LOG_LEVEL"]);
    }
  });

  it("counts an empty value as unset", () => {
    expect(loadConfig({ SESSION_SECRET: SECRET, PORT: "", DEFAULT_LOCALE: "" })).toMatchObject({ PORT: 3000, DEFAULT_LOCALE: "en" });
  });

  it.each([
    ["en_US", "en"],
    ["nl_NL", "nl"],
    ["nl", "nl"],
  ])("reads DEFAULT_LOCALE %s as %s", (value, locale) => {
    expect(loadConfig({ SESSION_SECRET: SECRET, DEFAULT_LOCALE: value }).DEFAULT_LOCALE).toBe(locale);
  });

  it.each([
    ["true", true],
    ["1", true],
    ["yes", true],
    ["false", false],
    ["0", false],
  ])("reads ALLOW_SIGNUP=%s as %s", (value, allowed) => {
    expect(loadConfig({ SESSION_SECRET: SECRET, ALLOW_SIGNUP: value }).ALLOW_SIGNUP).toBe(allowed);
  });

  it("makes cookies Secure only for an https PUBLIC_URL", () => {
    expect(loadConfig({ SESSION_SECRET: SECRET, PUBLIC_URL: "https://cms.example.org" }).secureCookies).toBe(true);
    expect(loadConfig({ SESSION_SECRET: SECRET, PUBLIC_URL: "http://localhost:3000" }).secureCookies).toBe(false);
  });

  it("without SESSION_SECRET generates one once, keeps it in DATA_DIR (owner-only) and reuses it", () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).SESSION_SECRET;
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, "session-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).SESSION_SECRET).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir() }).SESSION_SECRET).not.toBe(first);
  });

  it("prefers an explicit SESSION_SECRET and writes no file then", () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir, SESSION_SECRET: SECRET }).SESSION_SECRET).toBe(SECRET);
    expect(() => statSync(path.join(dir, "session-secret"))).toThrow();
  });

  it("rotates with SESSION_SECRETS: the first signs, every one is accepted; not both settings at once", () => {
    const next = "n".repeat(40);
    const config = loadConfig({ DATA_DIR: dataDir(), SESSION_SECRETS: ` ${next} , ${SECRET}` });
    expect(config.SESSION_SECRET).toBe(next);
    expect(config.acceptedSessionSecrets).toEqual([next, SECRET]);
    expect(config.sessionSecretConfigured).toBe(true);
    expect(() => loadConfig({ SESSION_SECRETS: `${next},short` })).toThrow(/SESSION_SECRETS.1: each secret must be at least 32 characters/);
    expect(() => loadConfig({ SESSION_SECRET: SECRET, SESSION_SECRETS: next })).toThrow(/set either SESSION_SECRET or SESSION_SECRETS/);
  });

  it("has a server on DATABASE_URL refuse to start without a secret from the environment, naming the setting", () => {
    const shared = { DATA_DIR: dataDir(), DATABASE_URL: "postgres://vitrine@db.example/vitrine" };
    const generated = loadConfig(shared);
    expect(generated.sessionSecretConfigured).toBe(false);
    expect(() => checkServerConfig(generated)).toThrow(ConfigError);
    expect(() => checkServerConfig(generated)).toThrow(/SESSION_SECRET: is required when DATABASE_URL is set/);
    expect(() => checkServerConfig(loadConfig({ ...shared, SESSION_SECRET: SECRET }))).not.toThrow();
    expect(() => checkServerConfig(loadConfig({ ...shared, SESSION_SECRETS: SECRET }))).not.toThrow();
    // The embedded database: one server, its generated secret is enough.
    expect(() => checkServerConfig(loadConfig({ DATA_DIR: dataDir() }))).not.toThrow();
  });

  it("keeps media on the file system unless MEDIA_STORAGE=s3, which needs a bucket, and credentials in pairs", () => {
    expect(loadConfig({ SESSION_SECRET: SECRET })).toMatchObject({
      MEDIA_STORAGE: "fs",
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: false,
      S3_PREFIX: "",
    });
    expect(() => loadConfig({ SESSION_SECRET: SECRET, MEDIA_STORAGE: "s3" })).toThrow(/S3_BUCKET: is required when MEDIA_STORAGE is s3/);
    expect(() => loadConfig({ SESSION_SECRET: SECRET, MEDIA_STORAGE: "nfs" })).toThrow(/MEDIA_STORAGE: must be fs or s3/);
    expect(() => loadConfig({ SESSION_SECRET: SECRET, MEDIA_STORAGE: "s3", S3_BUCKET: "media", S3_ACCESS_KEY_ID: "id" })).toThrow(
      /set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither/,
    );
    expect(() => loadConfig({ SESSION_SECRET: SECRET, S3_PREFIX: "vitrine" })).toThrow(/S3_PREFIX: must be folder names ending in \//);
    expect(
      loadConfig({
        SESSION_SECRET: SECRET,
        MEDIA_STORAGE: "s3",
        S3_BUCKET: "media",
        S3_ENDPOINT: "http://minio:9000",
        S3_FORCE_PATH_STYLE: "true",
        S3_PREFIX: "museum/vitrine/",
      }),
    ).toMatchObject({ MEDIA_STORAGE: "s3", S3_BUCKET: "media", S3_ENDPOINT: "http://minio:9000", S3_FORCE_PATH_STYLE: true });
  });
});
