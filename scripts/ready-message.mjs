import pino from "pino";

/**
 * The block npm start (and npm run dev) ends with: where Vitrine runs and how to sign in. `seeded` is what the first
 * start returns about the admin account it created; null on later starts.
 */
export function readyMessage({ url, seeded, title = "Vitrine is running" }) {
  const signIn = `${url}/login`;
  const lines = [`${title} at ${url}`, ""];
  if (seeded) {
    lines.push(
      `Sign in at ${signIn} with the admin account created now:`,
      `  email     ${seeded.adminEmail}`,
      `  password  ${seeded.generatedPassword ?? "the ADMIN_PASSWORD you set"}`,
    );
    if (seeded.generatedPassword) lines.push("", "The password is shown this once: keep it somewhere safe.");
    lines.push(`Lost it? A new one: npm run vitrine -- reset-password --email ${seeded.adminEmail}`);
  } else {
    lines.push(
      `Sign in at ${signIn} with your account.`,
      "Lost the admin password? A new one: npm run vitrine -- reset-password --email <the admin's email>",
    );
  }
  lines.push("", "Stop with Ctrl+C.");
  const rule = "─".repeat(Math.max(...lines.map((line) => line.length)) + 4);
  return ["", rule, ...lines.map((line) => (line ? `  ${line}` : "")), rule].join("\n");
}

/**
 * Prints `text` after everything the logger has been given: pino writes to stdout asynchronously, so a plain
 * console.log could overtake the start's last log lines. pino.symbols is pino's documented way to its stream.
 */
export function printAfterLogs(logger, text) {
  const stream = logger[pino.symbols.streamSym];
  if (typeof stream?.write === "function") stream.write(`${text}\n`);
  else console.log(text);
}
