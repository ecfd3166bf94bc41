// How busy the machine is with work other than the benchmark (Linux /proc).
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { samplePostgresCpu } from "./postgres-cpu.mjs";
import { readCpuMs } from "./server.mjs";

const TICK_MS = 10; // USER_HZ 100

/** Busy CPU time of the whole machine so far, in ms summed over cores. */
function machineBusyMs() {
  try {
    const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
    return (user + nice + system + irq + softirq + (steal ?? 0)) * TICK_MS;
  } catch {
    return null;
  }
}

function ownCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Starts a sample; stop() answers how many cores, on average, processes other
 * than this one, the given pids and the postgres processes working for the
 * given databases (lib/postgres-cpu.mjs: part of the system under test) kept
 * busy meanwhile (null when unknown).
 */
export function sampleOtherLoad(pids = [], postgresDatabases = []) {
  const start = performance.now();
  const machine = machineBusyMs();
  const own = ownCpuMs();
  const theirs = pids.map((pid) => readCpuMs(pid));
  const postgres = samplePostgresCpu(postgresDatabases);
  return {
    stop() {
      const postgresMs = postgres.stop() ?? 0;
      const elapsed = performance.now() - start;
      const machineNow = machineBusyMs();
      if (machine === null || machineNow === null || elapsed <= 0) return null;
      let ours = ownCpuMs() - own + postgresMs;
      pids.forEach((pid, i) => {
        const now = readCpuMs(pid);
        if (now !== null && theirs[i] !== null) ours += now - theirs[i];
      });
      return Math.max(0, (machineNow - machine - ours) / elapsed);
    },
  };
}

/** Cores kept busy by other processes over a short idle look. */
export async function otherLoadNow(ms = 1000) {
  const sample = sampleOtherLoad();
  await sleep(ms);
  return sample.stop();
}
