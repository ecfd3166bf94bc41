import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Temporary folders a test file makes (`make(prefix)`) and removes at its end (`removeAll`). */
export function tempFolders() {
  const made: string[] = [];
  return {
    make: (prefix: string): string => {
      const folder = mkdtempSync(path.join(tmpdir(), prefix));
      made.push(folder);
      return folder;
    },
    removeAll: (): void => {
      while (made.length) rmSync(made.pop()!, { recursive: true, force: true });
    },
  };
}
