import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildStatus, sourceFingerprint, writeStoredFingerprint } from "../../scripts/production-build.mjs";

// npm start rebuilds when the build's inputs changed since the last build: checked here on a small project of the
// real shape, made per test.
const projects: string[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) rmSync(project, { recursive: true, force: true });
});

function write(root: string, file: string, text: string) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

function project(): string {
  const root = mkdtempSync(path.join(tmpdir(), "vitrine-fingerprint-"));
  projects.push(root);
  const files: Record<string, string> = {
    "app/root.tsx": "export default function Root() { return null; }\n",
    "app/routes/home.tsx": "export default function Home() { return null; }\n",
    "core/ids.ts": "export const newId = () => 'id';\n",
    "server/app.ts": "export const startServer = () => null;\n",
    "server/config.test.ts": "it('reads the config', () => {});\n",
    "workers/media-worker.ts": "export {};\n",
    "locales/en.json": "{}\n",
    "public/favicon.svg": "<svg/>\n",
    "package.json": "{}\n",
    "package-lock.json": "{}\n",
    "vite.config.ts": "export default {};\n",
    "react-router.config.ts": "export default {};\n",
    "tsconfig.json": "{}\n",
    "docs/architecture.md": "# Architecture\n",
    "tests/unit/ids.test.ts": "it('makes ids', () => {});\n",
    "README.md": "# Vitrine\n",
  };
  for (const [file, text] of Object.entries(files)) write(root, file, text);
  return root;
}

describe("the build's source fingerprint", () => {
  it("changes when a source, a config, the lock file or a public file changes, or a source is added", () => {
    const root = project();
    const changes: [string, string][] = [
      ["app/routes/home.tsx", "export default function Home() { return 'home'; }\n"],
      ["core/ids.ts", "export const newId = () => 'another';\n"],
      ["server/app.ts", "export const startServer = () => 1;\n"],
      ["workers/media-worker.ts", "export const x = 1;\n"],
      ["locales/nl.json", "{}\n"],
      ["public/robots.txt", "User-agent: *\n"],
      ["package-lock.json", '{ "lockfileVersion": 3 }\n'],
      ["package.json", '{ "name": "vitrine" }\n'],
      ["vite.config.ts", "export default { base: '/' };\n"],
      ["react-router.config.ts", "export default { ssr: true };\n"],
      ["tsconfig.json", '{ "compilerOptions": {} }\n'],
    ];
    const seen = new Set([sourceFingerprint(root)]);
    for (const [file, text] of changes) {
      write(root, file, text);
      const fingerprint = sourceFingerprint(root);
      expect(seen.has(fingerprint), `${file} changed the fingerprint`).toBe(false);
      seen.add(fingerprint);
    }
  });

  it("stays the same for tests, documentation, other files and timestamps", () => {
    const root = project();
    const before = sourceFingerprint(root);
    write(root, "server/config.test.ts", "it('reads the config again', () => {});\n");
    write(root, "tests/unit/ids.test.ts", "it('makes other ids', () => {});\n");
    write(root, "docs/architecture.md", "# Architecture, revised\n");
    write(root, "README.md", "# Vitrine, revised\n");
    const past = new Date("2020-01-01T00:00:00Z");
    utimesSync(path.join(root, "app/root.tsx"), past, past);
    expect(sourceFingerprint(root)).toBe(before);
  });

  it("tells a missing build, a current one and one older than the sources apart", () => {
    const root = project();
    const buildDir = path.join(root, "build");
    expect(buildStatus(buildDir, root)).toMatchObject({ current: false, reason: "no build yet" });

    write(root, "build/server/index.js", "export {};\n");
    expect(buildStatus(buildDir, root)).toMatchObject({ current: false, reason: "the build's sources are unknown" });

    writeStoredFingerprint(buildDir, sourceFingerprint(root));
    expect(buildStatus(buildDir, root)).toMatchObject({ current: true });

    write(root, "core/ids.ts", "export const newId = () => 'changed';\n");
    expect(buildStatus(buildDir, root)).toMatchObject({ current: false, reason: "the sources changed since the last build" });
  });
});
