// npm run lint (with --max-warnings 0, after Prettier's check): JavaScript's and typescript-eslint's strict rules on every source and test,
// the rules of hooks and accessibility on the React code.
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import eslintConfigPrettier from "eslint-config-prettier/flat";
import globals from "globals";
import tseslint from "typescript-eslint";

const FETCH_CLASSES = ["Request", "Response", "Headers"];
const httpInDomain = (name) =>
  `The domain knows nothing of HTTP: take plain values and return them; server/web/ and app/routes/ use ${name}.`;

export default defineConfig(
  { ignores: ["build/", "build-*/", ".react-router/", "data/", "coverage/", "test-results/", "examples/exhibit-app/dist/"] },
  // A disable comment that no longer silences anything is itself a finding.
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: globals.node,
    },
  },
  {
    files: [
      "app/**/*.{ts,tsx}",
      "specialised-screens/**/*.{ts,tsx}",
      "tests/e2e/**/*.ts",
      "tests/support/**/*.ts",
      "examples/exhibit-app/src/**/*.ts",
    ],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ["app/**/*.{ts,tsx}", "specialised-screens/**/*.{ts,tsx}"],
    extends: [reactHooks.configs.flat.recommended, jsxA11y.flatConfigs.recommended],
  },
  {
    files: ["**/*.{ts,tsx}"],
    rules: {
      // Loaders, actions and guards throw React Router's redirect() and data() answers: its documented way to end
      // a request early. Everything else thrown must still be an Error.
      "@typescript-eslint/only-throw-error": [
        "error",
        {
          allow: [
            { from: "lib", name: "Response" },
            { from: "package", package: "react-router", name: ["DataWithResponseInit", "UNSAFE_DataWithResponseInit"] },
          ],
        },
      ],
      // `onClick={() => setOpen(false)}`: an arrow's shorthand body returning void is React's everyday idiom.
      "@typescript-eslint/no-confusing-void-expression": ["error", { ignoreArrowShorthand: true }],
      // Numbers in templates are how this codebase writes sizes, counts and URLs; booleans, nullable values and
      // objects in templates are still reported.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The domain folders of server/ know nothing of HTTP (docs/architecture.md): they take plain values and return
    // them, and server/web/ and app/routes/ read requests and make answers. The import side of the rule is
    // dependency-cruiser's (.dependency-cruiser.cjs, domain-knows-no-http); the Fetch classes are globals, so here.
    files: ["server/{content,accounts,media,delivery,webhooks,jobs,admin,mail}/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-globals": ["error", ...FETCH_CLASSES.map((name) => ({ name, message: httpInDomain(name) }))],
      "@typescript-eslint/no-restricted-types": [
        "error",
        { types: Object.fromEntries(FETCH_CLASSES.map((name) => [name, { message: httpInDomain(name) }])) },
      ],
    },
  },
  {
    // Every save goes through the front door (server/content/save.ts saveDocument): only it writes a document's
    // versions, so a rule added there holds for the form, the API, restore, the seed and the CLI alike.
    files: ["server/**/*.ts", "app/**/*.{ts,tsx}"],
    ignores: ["**/*.test.ts", "server/content/save.ts", "server/content/store.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/content/store", "./store"],
              importNames: ["createContent", "saveVersion"],
              message: "Save documents through saveDocument (server/content/save.ts), the one front door.",
            },
          ],
        },
      ],
    },
  },
  {
    // A product module holds one job; over 300 lines it says why in its header, with the directive that allows it
    // (`/* eslint-disable max-lines -- Over 300 lines on purpose: … */`).
    files: ["app/**/*.{ts,tsx}", "core/**/*.ts", "server/**/*.ts", "workers/**/*.ts", "specialised-screens/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "max-lines": ["error", { max: 300 }] },
  },
  {
    files: ["tests/**", "**/*.test.{ts,tsx}"],
    rules: {
      // Tests read JSON answers and database rows as they come (any) and check their shape with expect(), and
      // index into results they have just asserted on (`rows[0]!`): a wrong guess fails the test either way.
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    // The scripts and benchmark are plain JavaScript, outside the TypeScript project.
    files: ["**/*.{js,mjs,cjs}"],
    extends: [tseslint.configs.disableTypeChecked],
  },
  // Layout is Prettier's (npm run lint checks it); no ESLint rule argues with it.
  eslintConfigPrettier,
);
