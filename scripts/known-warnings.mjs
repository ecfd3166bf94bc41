import { stripVTControlCharacters } from "node:util";

/**
 * Warnings printed by a dependency that we cannot fix from our own configuration, matched exactly.
 *
 * @react-router/dev 7.18.4 creates its config loader and child compiler Vite servers with `envFile: false`, which
 * Vite 8.1+ deprecates: up to eight identical lines per build. React Router 8 passes `envDir: false` instead, but it
 * needs Node 22; drop this entry when upgrading.
 */
const KNOWN_WARNINGS = new Set(["The `envFile` option is deprecated, please use `envDir: false` instead."]);

/** Keeps console.warn quiet about the known warnings above and passes everything else through. */
export function silenceKnownWarnings() {
  const warn = console.warn;
  console.warn = (...args) => {
    if (args.length === 1 && typeof args[0] === "string" && KNOWN_WARNINGS.has(stripVTControlCharacters(args[0]))) return;
    warn(...args);
  };
}
