import { parseArgs } from "node:util";
import type { ScreenTable } from "@core/content/screen-table";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { loadConfig, type Config } from "./config";
import { exportBundle } from "./delivery/export";
import type { MediaStorage } from "./media/storage";
import { mediaStorageOf } from "./media/start";
import { openDatabase, type Db } from "./db/client";
import { migrate } from "./db/migrate";
import { DataDirInUseError, sendCommand, type OutputStream } from "./db/data-dir-lock";
import { createInvitation } from "./accounts/invitations";
import { setUserPassword } from "./accounts/password-admin";
import { createUser, findUserByEmail, PERMISSIONS, type Permission } from "./accounts/users";
import { saveDocumentCommand } from "./cli-save-document";
import { exportDocumentsCommand, importDocumentsCommand } from "./cli-transfer";
import { backup, describeBackup } from "./backup/backup";
import { describeRestore, restore } from "./backup/restore";

const USAGE = `Usage: npm run vitrine -- <command> [options]

Commands:
  migrate                                   apply pending database migrations
  create-user --email E --name N [--password P] [--permissions user,admin,dev]
  reset-password --email E [--password P]   (ends the user's sessions)
  create-invitation [--email E] [--permissions user] [--days 7]
  export-bundle --client C --buckets a,b [--locales nl,en] [--populate 1] [--since BUNDLE_ID] --out FILE.tar
                                            an offline bundle for an API client (id or name), as
                                            GET /api/v1/delivery/bundle answers it (docs/bundles.md)
  save-document --bucket SLUG --as EMAIL --file DOC.json
                                            saves a document as that user, checked as the edit form and the
                                            API check it; DOC.json holds its fields (with contentId and _id:
                                            a new version of that document); prints the saved document
  import-documents --bucket SLUG --as EMAIL --file FILE [--format csv|json|ndjson] [--key PROPERTY]
                   [--map "File header=column,…"] [--zip MEDIA.zip] [--dry-run]
                                            imports documents from a CSV (a column per field, a translated
                                            field's as title.nl), a JSON array or NDJSON, each checked as the
                                            edit form checks it and saved as a version by that user; --key
                                            names the property that finds a document imported before (it is
                                            updated, not duplicated); --zip holds the images and files its
                                            media cells name by path; --dry-run checks and writes nothing
  import-documents --resume RUN --as EMAIL  goes on with an import that was cut off, after its last whole batch
  export-documents --bucket SLUG --out FILE [--format csv|json|ndjson] [--q WORDS] [--state STATE]
                                            the bucket's documents (or a search's matches) as the overview's
                                            Export downloads them
  backup --out FILE.tar                     the database and the media files it names, as one archive with a
                                            manifest and checksums, taken while the server runs (docs/backup.md)
  restore --from FILE.tar                   a backup, into an empty data directory (DATA_DIR) or an empty
                                            database (DATABASE_URL) and the configured media store`;

function parsePermissions(value: string | undefined): Permission[] {
  const list = (value ?? "user")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = list.filter((p) => !PERMISSIONS.includes(p as Permission));
  if (unknown.length) throw new Error(`Unknown permission(s): ${unknown.join(", ")}. Use ${PERMISSIONS.join(", ")}.`);
  return list as Permission[];
}

function require(value: string | undefined, name: string): string {
  if (!value) throw new Error(`--${name} is required`);
  return value;
}

type Print = (stream: OutputStream, text: string) => void;

const printToConsole: Print = (stream, text) => process[stream].write(text);

function parseOptions(rest: string[]) {
  return parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      password: { type: "string" },
      permissions: { type: "string" },
      days: { type: "string" },
      client: { type: "string" },
      buckets: { type: "string" },
      bucket: { type: "string" },
      locales: { type: "string" },
      populate: { type: "string" },
      since: { type: "string" },
      out: { type: "string" },
      from: { type: "string" },
      file: { type: "string" },
      zip: { type: "string" },
      as: { type: "string" },
      format: { type: "string" },
      key: { type: "string" },
      map: { type: "string" },
      "dry-run": { type: "boolean" },
      resume: { type: "string" },
      q: { type: "string" },
      state: { type: "string" },
    },
    strict: true,
  }).values;
}

/** What a command may need beside the database: the configuration and the media files (export-bundle). */
export interface CommandContext {
  config: Config;
  storage: MediaStorage;
  /** The specialised screens' table (specialised-screens/table.ts), handed in by server/app.ts: a save runs their rules. */
  screens: ScreenTable;
}

/** Runs one command on an open database: here, or inside the server that holds the embedded database. */
export async function runCommand(db: Db, argv: string[], print: Print, context?: CommandContext): Promise<number> {
  const [command, ...rest] = argv;
  const values = parseOptions(rest);
  const out = (text: string) => print("stdout", `${text}\n`);
  switch (command) {
    case "migrate":
      await migrate(db);
      out("Migrations are up to date.");
      return 0;
    case "create-user": {
      const password = values.password ?? randomBytes(12).toString("base64url");
      const user = await createUser(db, {
        email: require(values.email, "email"),
        name: require(values.name, "name"),
        password,
        permissions: parsePermissions(values.permissions),
      });
      out(`Created ${user.email} (${user.permissions.join(", ")}).${values.password ? "" : ` Password: ${password}`}`);
      return 0;
    }
    case "reset-password": {
      const user = await findUserByEmail(db, require(values.email, "email"));
      if (!user) throw new Error(`No user with email ${values.email}`);
      const password = values.password ?? randomBytes(12).toString("base64url");
      await setUserPassword(db, user.id, password, null);
      out(`Password of ${user.email} reset.${values.password ? "" : ` New password: ${password}`}`);
      return 0;
    }
    case "create-invitation": {
      const { code, expiresAt } = await createInvitation(db, {
        email: values.email ?? null,
        permissions: parsePermissions(values.permissions),
        ttlDays: values.days ? Number(values.days) : undefined,
      });
      out(`Invitation code: ${code} (valid until ${expiresAt.toISOString()})`);
      return 0;
    }
    case "export-bundle": {
      if (!context) throw new Error("export-bundle needs the media files: run it through npm run vitrine");
      const result = await exportBundle(db, context, {
        client: require(values.client, "client"),
        buckets: require(values.buckets, "buckets"),
        locales: values.locales,
        populate: values.populate,
        since: values.since,
        out: require(values.out, "out"),
      });
      out(`Bundle ${result.id}: ${result.files} files, ${result.bytes} bytes, written to ${result.out}`);
      return 0;
    }
    case "save-document": {
      if (!context) throw new Error("save-document needs the media files: run it through npm run vitrine");
      const result = await saveDocumentCommand(
        { db, media: { storage: context.storage }, screens: context.screens },
        {
          bucket: require(values.bucket, "bucket"),
          as: require(values.as, "as"),
          file: require(values.file, "file"),
          defaultLocale: context.config.DEFAULT_LOCALE,
        },
      );
      if (result.stdout) out(result.stdout);
      if (result.stderr) print("stderr", `${result.stderr}\n`);
      return result.code;
    }
    case "import-documents": {
      if (!context) throw new Error("import-documents needs the media files: run it through npm run vitrine");
      const result = await importDocumentsCommand(
        { db, media: { storage: context.storage }, screens: context.screens },
        {
          bucket: values.bucket,
          as: require(values.as, "as"),
          file: values.file,
          zip: values.zip,
          format: values.format,
          key: values.key,
          map: values.map,
          dryRun: values["dry-run"] ?? false,
          resume: values.resume,
          defaultLocale: context.config.DEFAULT_LOCALE,
        },
        out,
      );
      for (const problem of result.problems) print("stderr", `${problem}\n`);
      out(result.stdout);
      return result.code;
    }
    case "export-documents":
      out(
        await exportDocumentsCommand(db, {
          bucket: require(values.bucket, "bucket"),
          format: values.format,
          out: require(values.out, "out"),
          q: values.q,
          state: values.state,
        }),
      );
      return 0;
    case "backup": {
      if (!context) throw new Error("backup needs the media files: run it through npm run vitrine");
      const result = await backup(db, context, path.resolve(require(values.out, "out")));
      out(describeBackup(result));
      return 0;
    }
    case "restore":
      throw new Error("A restore goes into an empty data directory, never through a running server: stop the server first.");
    default:
      print("stderr", `Unknown command: ${command}\n\n${USAGE}\n`);
      return 1;
  }
}

/**
 * `npm run vitrine -- <command>`. On the embedded database, a running server holds the data directory: the
 * command then runs inside that server (its database is the one that counts), never on a second copy.
 */
export async function runCli(
  argv: string[],
  screens: ScreenTable,
  env: NodeJS.ProcessEnv = process.env,
  print: Print = printToConsole,
): Promise<number> {
  const [command, ...rest] = argv;
  const values = parseOptions(rest); // refuses unknown options before anything is opened
  // A file is read or written by whichever process runs the command (maybe the server): name it from here.
  argv = argv.map((arg, index) => {
    for (const option of ["--out", "--file", "--zip"]) {
      if (index > 0 && argv[index - 1] === option) return path.resolve(arg);
      if (arg.startsWith(`${option}=`)) return `${option}=${path.resolve(arg.slice(option.length + 1))}`;
    }
    return arg;
  });
  if (!command || command === "help" || command === "--help") {
    print("stdout", `${USAGE}\n`);
    return command ? 0 : 1;
  }
  const config = loadConfig(env);
  // Before the database is opened: opening it would initialise (PGlite) or migrate an empty target.
  if (command === "restore") {
    const storage = mediaStorageOf(config);
    try {
      print("stdout", `${describeRestore(await restore(config, storage, path.resolve(require(values.from, "from"))))}\n`);
      return 0;
    } finally {
      await storage.close();
    }
  }
  let db: Db;
  try {
    db = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      pgliteSharedBuffers: config.PGLITE_SHARED_BUFFERS,
      poolSize: config.DATABASE_POOL_SIZE,
      preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
    });
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const dataDir = path.resolve(config.DATA_DIR);
    const result = await sendCommand(dataDir, path.join(dataDir, "pgdata"), argv, print);
    if (result instanceof DataDirInUseError) throw result;
    return result;
  }
  const storage = mediaStorageOf(config);
  try {
    if (command !== "migrate") await migrate(db);
    return await runCommand(db, argv, print, { config, storage, screens });
  } finally {
    await storage.close();
    await db.close();
  }
}
