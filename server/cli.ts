import { parseArgs } from "node:util";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { loadConfig } from "./config";
import { openDatabase, type Db } from "./db/client";
import { migrate } from "./db/migrate";
import { DataDirInUseError, sendCommand, type OutputStream } from "./db/data-dir-lock";
import { createInvitation } from "./accounts/invitations";
import { createUser, findUserByEmail, PERMISSIONS, setPassword, type Permission } from "./accounts/users";

const USAGE = `Usage: npm run vitrine -- <command> [options]

Commands:
  migrate                                   apply pending database migrations
  create-user --email E --name N [--password P] [--permissions user,admin,dev]
  reset-password --email E [--password P]   (ends the user's sessions)
  create-invitation [--email E] [--permissions user] [--days 7]`;

function parsePermissions(value: string | undefined): Permission[] {
  const list = (value ?? "user").split(",").map((p) => p.trim()).filter(Boolean);
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
    },
    strict: true,
  }).values;
}

/** Runs one command on an open database: here, or inside the server that holds the embedded database. */
export async function runCommand(db: Db, argv: string[], print: Print): Promise<number> {
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
      await setPassword(db, user.id, password);
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
    default:
      print("stderr", `Unknown command: ${command}\n\n${USAGE}\n`);
      return 1;
  }
}

/**
 * `npm run vitrine -- <command>`. On the embedded database, a running server holds the data directory: the
 * command then runs inside that server (its database is the one that counts), never on a second copy.
 */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env, print: Print = printToConsole): Promise<number> {
  const [command, ...rest] = argv;
  parseOptions(rest); // refuses unknown options before anything is opened
  if (!command || command === "help" || command === "--help") {
    print("stdout", `${USAGE}\n`);
    return command ? 0 : 1;
  }
  const config = loadConfig(env);
  let db: Db;
  try {
    db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, pgliteSharedBuffers: config.PGLITE_SHARED_BUFFERS });
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const dataDir = path.resolve(config.DATA_DIR);
    const result = await sendCommand(dataDir, path.join(dataDir, "pgdata"), argv, print);
    if (result instanceof DataDirInUseError) throw result;
    return result;
  }
  try {
    if (command !== "migrate") await migrate(db);
    return await runCommand(db, argv, print);
  } finally {
    await db.close();
  }
}
