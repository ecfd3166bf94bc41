import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that take minutes although their source is short. On a fresh clone vitest knows no file's duration and
 * starts the largest files first, so these ran last, with the other worker idle meanwhile.
 */
const LONG_FILES = ["tests/e2e/visual-checks.test.ts"];

/** Vitest's order (groups, then known durations or file sizes), with the files of LONG_FILES first in their group. */
export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isLong = (file: TestSpecification) => LONG_FILES.some((name) => file.moduleId.endsWith(`/${name}`));
    return [...sorted.filter(isLong), ...sorted.filter((file) => !isLong(file))];
  }
}
