// npm run build: the production build, summarised in one line (the whole log only when it fails).
// `npx react-router build` shows the whole log; a build made that way is rebuilt by the next npm start.
import { buildDirectory, buildProduction } from "./production-build.mjs";

const result = buildProduction(buildDirectory());
if (!result.ok) {
  console.error(result.output.trimEnd());
  console.error(result.summary);
  process.exit(1);
}
console.log(result.summary);
