import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findFfmpeg } from "@server/media/ffmpeg";

/*
 * ffmpeg and ffprobe are found in this order: FFMPEG_PATH/FFPROBE_PATH, the system's (the PATH), then
 * the optional ffmpeg-static package. Real binaries: Debian's, linked under other names and places.
 */

const directory = mkdtempSync(path.join(tmpdir(), "vitrine-ffmpeg-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const linked = (target: string, name: string) => {
  const link = path.join(directory, name);
  symlinkSync(target, link);
  return link;
};
const systemFfmpeg = "/usr/bin/ffmpeg";
const systemFfprobe = "/usr/bin/ffprobe";
const emptyDir = mkdtempSync(path.join(directory, "empty-"));
const hasFfmpegStatic = (() => {
  try {
    createRequire(import.meta.url).resolve("ffmpeg-static");
    return true;
  } catch {
    return false;
  }
})();

describe("finding ffmpeg and ffprobe", () => {
  it("takes FFMPEG_PATH and FFPROBE_PATH first, with their version", async () => {
    const ffmpegPath = linked(systemFfmpeg, "our-ffmpeg");
    const ffprobePath = linked(systemFfprobe, "our-ffprobe");
    const found = await findFfmpeg({ ffmpegPath, ffprobePath, searchPath: emptyDir });
    expect(found).toEqual({
      tools: { ffmpeg: ffmpegPath, ffprobe: ffprobePath, source: "environment", version: expect.stringMatching(/^ffmpeg version \S+/) },
      rejected: [],
    });
  });

  it("else the system's, on the PATH", async () => {
    const found = await findFfmpeg({ searchPath: path.dirname(systemFfmpeg) });
    expect(found.tools).toMatchObject({ ffmpeg: "ffmpeg", ffprobe: "ffprobe", source: "system" });
  });

  it("falls back past configured paths that do not work, and names them", async () => {
    const script = path.join(directory, "not-ffmpeg");
    writeFileSync(script, "#!/bin/sh\nexit 3\n", { mode: 0o755 });
    const found = await findFfmpeg({ ffmpegPath: script, ffprobePath: "/nonexistent/ffprobe", searchPath: path.dirname(systemFfmpeg) });
    expect(found).toMatchObject({ tools: { source: "system" }, rejected: [script, "/nonexistent/ffprobe"] });
  });

  it("finds none without any (then video is off), unless the optional ffmpeg-static package installed its binary", async () => {
    const found = await findFfmpeg({ searchPath: emptyDir });
    if (hasFfmpegStatic) expect(found.tools?.source ?? null).not.toBe("system");
    else expect(found).toEqual({ tools: null, rejected: [] });
  });

  it("needs ffprobe too: ffmpeg alone is not enough", async () => {
    const onlyFfmpeg = mkdtempSync(path.join(directory, "only-ffmpeg-"));
    symlinkSync(systemFfmpeg, path.join(onlyFfmpeg, "ffmpeg"));
    expect((await findFfmpeg({ searchPath: onlyFfmpeg })).tools).toBeNull();
  });
});
