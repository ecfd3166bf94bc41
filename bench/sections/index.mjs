// The benchmark's sections, run in this order. Each is an async function
// (ctx) => rows; see bench/run.mjs for what ctx offers and lib/report.mjs for rows.
// To add one: write bench/sections/<name>.mjs and list it here.
import { pages } from "./pages.mjs";
import { startup } from "./startup.mjs";

export const sections = [
  { name: "startup", title: "Cold start and idle memory", run: startup },
  { name: "pages", title: "Pages under load", run: pages },
];
