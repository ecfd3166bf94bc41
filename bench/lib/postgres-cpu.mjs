// PostgreSQL's own CPU time, counted as part of the system under test (Linux /proc). A local PostgreSQL runs one
// process per connection ("postgres: [cluster: ]user database host(port) state") beside shared background processes
// (checkpointer, background writer, WAL writer, the postmaster). Ours are the backends of the benchmark's own
// databases and the shared processes, which work for whoever writes; other databases' backends are other load.
import { readdirSync, readFileSync } from "node:fs";

const CLOCK_TICKS = 100; // USER_HZ on Linux

function readProcess(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    if (comm !== "postgres") return null;
    const fields = stat.slice(close + 2).split(" ");
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    const startTime = fields[19];
    const title = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").replace(/\0/g, " ");
    return { pid, cpuMs, startTime, title };
  } catch {
    return null;
  }
}

/** The database a backend serves, from its process title; null for a shared background process. */
export function backendDatabase(title) {
  const match = /^postgres: (?:[^:]+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])/.exec(title);
  return match ? match[1] : null;
}

/** Every postgres process visible here: pid → { cpuMs, startTime, title }. Empty when PostgreSQL runs elsewhere. */
function postgresProcesses() {
  const found = new Map();
  let pids = [];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return found;
  }
  for (const pid of pids) {
    const process = readProcess(pid);
    if (process) found.set(pid, process);
  }
  return found;
}

/** Whether a postgres process works for the given databases (their backends, or a shared background process). */
function isOurs(process, databases) {
  const database = backendDatabase(process.title);
  return database === null || databases.has(database);
}

/**
 * Starts a sample of the CPU that postgres processes working for `databases` (names) use; stop() answers the ms
 * they used meanwhile, or null when no postgres process is visible (PostgreSQL on another machine) or no database
 * is named.
 * A process that started during the sample counts whole; one that ended during it is lost (pools keep theirs).
 */
export function samplePostgresCpu(databases) {
  const names = new Set(databases);
  if (names.size === 0) return { stop: () => null };
  const before = postgresProcesses();
  return {
    stop() {
      const after = postgresProcesses();
      if (after.size === 0) return null;
      let ms = 0;
      for (const [pid, process] of after) {
        if (!isOurs(process, names)) continue;
        const earlier = before.get(pid);
        ms += earlier && earlier.startTime === process.startTime ? process.cpuMs - earlier.cpuMs : process.cpuMs;
      }
      return ms;
    },
  };
}
