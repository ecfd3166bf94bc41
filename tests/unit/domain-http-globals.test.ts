import { ESLint, type Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

/*
 * The domain folders of server/ use none of the Fetch classes (eslint.config.js; the import side is
 * dependency-cruiser's, tests/unit/layering.test.ts). This runs the real block of the configuration on a file that
 * uses them, placed in a domain folder and in server/web/.
 */

// The configuration is plain JavaScript (no types to import): read through a path held in a variable.
const CONFIG_PATH = "../../eslint.config.js";
const config = ((await import(CONFIG_PATH)) as { default: Linter.Config[] }).default;
const DOMAIN_BLOCK = config.find((block) => Object.keys(block.rules ?? {}).includes("no-restricted-globals"));

async function findings(filePath: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: process.cwd(),
    overrideConfigFile: true,
    overrideConfig: [
      { files: ["**/*.ts"], languageOptions: { parser: tseslint.parser } },
      { plugins: { "@typescript-eslint": tseslint.plugin } },
      DOMAIN_BLOCK!,
    ],
  });
  const code = "export function answer(request: Request): Response {\n  return new Response(request.url, { headers: new Headers() });\n}\n";
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => `${message.line}:${message.column} ${message.ruleId}`);
}

describe("the domain's HTTP rule", () => {
  it("names every use of Request, Response and Headers in a domain folder", async () => {
    expect(DOMAIN_BLOCK).toBeDefined();
    for (const folder of ["content", "media", "delivery", "accounts"]) {
      expect(await findings(`server/${folder}/answer.ts`)).toEqual([
        "1:33 @typescript-eslint/no-restricted-types",
        "1:43 @typescript-eslint/no-restricted-types",
        "2:14 no-restricted-globals",
        "2:51 no-restricted-globals",
      ]);
    }
  });

  it("leaves the web layer and the domain's tests alone", async () => {
    expect(await findings("server/web/answer.ts")).toEqual([]);
    expect(await findings("server/content/answer.test.ts")).toEqual([]);
  });
});
