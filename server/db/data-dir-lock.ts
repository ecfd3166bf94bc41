import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";

/*
 * PGlite is one process's database: a second process opening the same data directory works on its own copy and
 * one of them loses its writes. The process that opens it claims the directory by listening on a local socket
 * named after it; a second process finds the socket answering and stops (a server) or hands its command to the
 * holder (the CLI, when the holder is a server). On Linux the socket lives in the abstract namespace: the kernel
 * frees it when the process dies, even by kill -9, so there is never a stale lock to clear.
 */

export type OutputStream = "stdout" | "stderr";
export type CommandHandler = (argv: string[], print: (stream: OutputStream, text: string) => void) => Promise<number>;

export interface DataDirLock {
  /** Lets a CLI command run in this process (the server sets it once it is up). */
  setCommandHandler(handler: CommandHandler | null): void;
  release(): Promise<void>;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number | null,
  ) {
    super(
      `Another Vitrine process${holderPid ? ` (pid ${holderPid})` : ""} is using the embedded database in ${dataDir}. ` +
        "Stop it first, or use PostgreSQL (DATABASE_URL) to run several servers on the same data.",
    );
    this.name = "DataDirInUseError";
  }
}

type Request = { token: string; argv: string[] } | { probe: true };
type Reply = { pid: number; busy: true } | { pid: number; refused: string } | { out: string; stream: OutputStream } | { exit: number };

const TOKEN_FILE = "command-token";

function socketAddress(pgdataDir: string): string {
  const real = realpathSync(pgdataDir);
  if (process.platform === "linux") return `\0vitrine-${createHash("sha256").update(real).digest("hex").slice(0, 40)}`;
  return path.join(real, "..", "vitrine.sock");
}

function send(socket: Socket, reply: Reply): void {
  socket.write(`${JSON.stringify(reply)}\n`);
}

function tokensMatch(given: unknown, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(address, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Claims the data directory for this process; throws DataDirInUseError when another process holds it. */
export async function claimDataDir(dataDir: string, pgdataDir: string): Promise<DataDirLock> {
  const address = socketAddress(pgdataDir);
  const token = randomBytes(32).toString("base64url");
  let handler: CommandHandler | null = null;
  const server = createServer((socket) => {
    socket.on("error", () => socket.destroy());
    const lines = createInterface({ input: socket });
    lines.once("line", (line) => {
      lines.close();
      let request: Request;
      try {
        request = JSON.parse(line) as Request;
      } catch {
        socket.end();
        return;
      }
      const current = handler;
      if ("probe" in request || !current) {
        send(socket, { pid: process.pid, busy: true });
        socket.end();
        return;
      }
      if (!tokensMatch(request.token, token) || !Array.isArray(request.argv)) {
        send(socket, { pid: process.pid, refused: "The command channel refused the request: it did not carry this server's token." });
        socket.end();
        return;
      }
      current(request.argv.map(String), (stream, out) => send(socket, { out, stream }))
        .then((exit) => send(socket, { exit }))
        .catch((error: unknown) => {
          send(socket, { out: `${error instanceof Error ? error.message : String(error)}\n`, stream: "stderr" });
          send(socket, { exit: 1 });
        })
        .finally(() => socket.end());
    });
  });
  server.unref();
  try {
    await listen(server, address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    const holder = await probe(address);
    if (holder !== "gone") throw new DataDirInUseError(dataDir, holder);
    // A socket file left by a process that died (platforms without the abstract namespace).
    rmSync(address, { force: true });
    await listen(server, address);
  }
  const tokenFile = path.join(dataDir, TOKEN_FILE);
  writeFileSync(tokenFile, token, { mode: 0o600 });
  return {
    setCommandHandler(next) {
      handler = next;
    },
    release: () =>
      new Promise<void>((resolve) => {
        handler = null;
        rmSync(tokenFile, { force: true });
        server.close(() => resolve());
      }),
  };
}

function exchange(address: string, request: Request, onReply: (reply: Reply) => void): Promise<"answered" | "gone"> {
  return new Promise((resolve, reject) => {
    const socket = connect(address);
    let answered = false;
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (!answered && (error.code === "ECONNREFUSED" || error.code === "ENOENT")) resolve("gone");
      else reject(error);
    });
    socket.once("connect", () => socket.write(`${JSON.stringify(request)}\n`));
    const lines = createInterface({ input: socket });
    lines.on("line", (line) => {
      answered = true;
      onReply(JSON.parse(line) as Reply);
    });
    socket.once("close", () => resolve(answered ? "answered" : "gone"));
  });
}

/** The pid of the process holding the directory, null when it did not say, "gone" when nothing listens. */
async function probe(address: string): Promise<number | null | "gone"> {
  let pid: number | null = null;
  const result = await exchange(address, { probe: true }, (reply) => {
    if ("pid" in reply) pid = reply.pid;
  });
  return result === "gone" ? "gone" : pid;
}

/**
 * Runs a CLI command in the server that holds the data directory. Returns the command's exit code, or
 * DataDirInUseError when the holder takes no commands (another CLI, a test, a process being stopped).
 */
export async function sendCommand(
  dataDir: string,
  pgdataDir: string,
  argv: string[],
  print: (stream: OutputStream, text: string) => void,
): Promise<number | DataDirInUseError> {
  let token: string;
  try {
    token = readFileSync(path.join(dataDir, TOKEN_FILE), "utf8");
  } catch {
    return new DataDirInUseError(dataDir, null);
  }
  const outcome: { exit: number | null; busyPid: number | null } = { exit: null, busyPid: null };
  await exchange(socketAddress(pgdataDir), { token, argv }, (reply) => {
    if ("out" in reply) print(reply.stream, reply.out);
    else if ("exit" in reply) outcome.exit = reply.exit;
    else if ("refused" in reply) print("stderr", `${reply.refused}\n`);
    else outcome.busyPid = reply.pid;
  });
  return outcome.exit ?? new DataDirInUseError(dataDir, outcome.busyPid);
}
