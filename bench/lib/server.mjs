// Starting and stopping the production server (node scripts/start.mjs) for the benchmark.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export const HOST = "127.0.0.1";

/** The server could not start: the benchmark has nothing to measure (exit 1). */
export class ServerStartError extends Error {
  constructor(message, output = "") {
    super(output ? `${message}\n--- server output ---\n${output.trim()}` : message);
    this.name = "ServerStartError";
  }
}

/** A free TCP port on the loopback address. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** One GET without keep-alive; resolves with the status code, rejects on a socket error. */
export function probe(url, timeoutMs = 1000) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode));
    });
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", reject);
  });
}

/** VmRSS of a process in bytes (Linux /proc), or null when unavailable. */
export function readRss(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc), or null. */
export function readCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name "(…)": utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100; // USER_HZ on Linux

/**
 * Spawns `node scripts/start.mjs --no-build` (the process is the server itself, so its
 * pid is the one to measure) and resolves once /healthz answers 200.
 * `readyMs` is the time from spawn to that first 200.
 */
export async function startServer({
  root,
  env,
  nodeArgs = [],
  timeoutMs = 120_000,
  pollMs = 5,
  script = ["scripts/start.mjs", "--no-build"],
}) {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  let output = "";
  const started = performance.now();
  // --no-build: the benchmark built build-bench/ itself; a start must not rebuild it (or time a build as start-up).
  // `script`: a baseline server (bench/baselines/) is started, timed and measured the same way.
  const child = spawn(process.execPath, [...nodeArgs, ...script], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const remember = (chunk) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout.on("data", remember);
  child.stderr.on("data", remember);
  let exited = null;
  const exitPromise = new Promise((resolve) => {
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
  });
  const server = {
    child,
    pid: child.pid,
    port,
    url,
    readyMs: 0,
    output: () => output,
    /** The PostgreSQL databases this server works on (their backends' CPU is part of its cost: lib/postgres-cpu.mjs). */
    postgresDatabases: [env.DATABASE_URL, env.BARE_DATABASE_URL]
      .filter(Boolean)
      .map((url) => decodeURIComponent(new URL(url).pathname.slice(1))),
    rss: () => readRss(child.pid),
    cpuMs: () => readCpuMs(child.pid),
    /** SIGTERM (the server closes its database cleanly), SIGKILL after 10 s. */
    stopping: false,
    async stop() {
      if (exited) return exited;
      server.stopping = true;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const result = await exitPromise;
      clearTimeout(timer);
      return result;
    },
  };

  for (;;) {
    if (exited) {
      throw new ServerStartError(`the server exited (code ${exited.code}, signal ${exited.signal}) before /healthz answered`, output);
    }
    if (performance.now() - started > timeoutMs) {
      await server.stop();
      throw new ServerStartError(`/healthz did not answer 200 within ${timeoutMs / 1000} s`, output);
    }
    try {
      const status = await probe(`${url}/healthz`);
      if (status === 200) {
        server.readyMs = performance.now() - started;
        return server;
      }
    } catch {
      // not listening yet
    }
    await sleep(pollMs);
  }
}
