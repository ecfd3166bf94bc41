/**
 * SIGKILLs every process of a group (an ffmpeg started as its own group leader). A group that is already gone is
 * fine. Ids below 2 are refused: -1 would signal every process we may signal, 0 our own group.
 */
export function killProcessGroup(groupId: number): void {
  if (!Number.isInteger(groupId) || groupId < 2) return;
  try {
    process.kill(-groupId, "SIGKILL");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ESRCH" && code !== "EPERM") throw error;
  }
}
