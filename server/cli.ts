import { parseArgs } from "node:util";
import { randomBytes } from "node:crypto";
import { loadConfig } from "./config";
import { openDatabase, type Db } from "./db/client";
import { migrate } from "./db/migrate";
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

export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      password: { type: "string" },
      permissions: { type: "string" },
      days: { type: "string" },
    },
    strict: true,
  });
  if (!command || command === "help" || command === "--help") {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  const config = loadConfig(env);
  const db: Db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrate(db);
    switch (command) {
      case "migrate":
        console.log("Migrations are up to date.");
        return 0;
      case "create-user": {
        const password = values.password ?? randomBytes(12).toString("base64url");
        const user = await createUser(db, {
          email: require(values.email, "email"),
          name: require(values.name, "name"),
          password,
          permissions: parsePermissions(values.permissions),
        });
        console.log(`Created ${user.email} (${user.permissions.join(", ")}).${values.password ? "" : ` Password: ${password}`}`);
        return 0;
      }
      case "reset-password": {
        const user = await findUserByEmail(db, require(values.email, "email"));
        if (!user) throw new Error(`No user with email ${values.email}`);
        const password = values.password ?? randomBytes(12).toString("base64url");
        await setPassword(db, user.id, password);
        console.log(`Password of ${user.email} reset.${values.password ? "" : ` New password: ${password}`}`);
        return 0;
      }
      case "create-invitation": {
        const { code, expiresAt } = await createInvitation(db, {
          email: values.email ?? null,
          permissions: parsePermissions(values.permissions),
          ttlDays: values.days ? Number(values.days) : undefined,
        });
        console.log(`Invitation code: ${code} (valid until ${expiresAt.toISOString()})`);
        return 0;
      }
      default:
        console.error(`Unknown command: ${command}\n\n${USAGE}`);
        return 1;
    }
  } finally {
    await db.close();
  }
}
