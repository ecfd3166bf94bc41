// React Router's CLI (`node scripts/react-router.mjs build`, `… typegen`), without the known dependency warnings.
import { createRequire } from "node:module";
import path from "node:path";
import { silenceKnownWarnings } from "./known-warnings.mjs";

silenceKnownWarnings();
const require = createRequire(import.meta.url);
// The package exports no bin entry: resolve it beside its package.json. It reads its arguments from process.argv.
require(path.join(path.dirname(require.resolve("@react-router/dev/package.json")), "bin.js"));
