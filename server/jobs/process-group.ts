/**
 * SIGKILLs every process of a group (an ffmpeg started as its own group leader). Never throws: it runs in exit
 * handlers, and a group that is gone (ESRCH) or no longer ours (EPERM) is nothing left to do. Ids below 2 are
 * refused: -1 would signal every process we may signal, 0 our own group.
 */
export function killProcessGroup(groupId: number): void {
  if (!Number.isInteger(groupId) || groupId < 2) return;
  try {
    process.kill(-groupId, "SIGKILL");
  } catch {
    // gone already, or not ours
  }
}
