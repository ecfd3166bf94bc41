import { ESLint, type Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

/*
 * Only the front door (server/content/save.ts) writes a document's versions (eslint.config.js): this runs the real
 * block of the configuration on files that import the store's writers.
 */

// The configuration is plain JavaScript (no types to import): read through a path held in a variable.
const CONFIG_PATH = "../../eslint.config.js";
const config = ((await import(CONFIG_PATH)) as { default: Linter.Config[] }).default;
const FRONT_DOOR_BLOCK = config.find((block) => Object.keys(block.rules ?? {}).includes("no-restricted-imports"));

async function findings(filePath: string, from: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: process.cwd(),
    overrideConfigFile: true,
    overrideConfig: [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser } }, FRONT_DOOR_BLOCK!],
  });
  const code = `import { createContent, getVersion, saveVersion } from "${from}";\nexport { createContent, getVersion, saveVersion };\n`;
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => `${message.line}:${message.column} ${message.ruleId}`);
}

describe("the front door rule", () => {
  it("names every import of createContent and saveVersion outside save.ts, and nothing else of the store", async () => {
    expect(FRONT_DOOR_BLOCK).toBeDefined();
    const refused = ["1:10 no-restricted-imports", "1:37 no-restricted-imports"];
    expect(await findings("server/content/history.ts", "./store")).toEqual(refused);
    expect(await findings("server/seed.ts", "./content/store")).toEqual(refused);
    expect(await findings("app/routes/anything.ts", "@server/content/store")).toEqual(refused);
  });

  it("lets the front door and the store itself write", async () => {
    expect(await findings("server/content/save.ts", "./store")).toEqual([]);
    expect(await findings("server/content/store.ts", "./store")).toEqual([]);
  });
});
