import { describe, expect, it } from "vitest";
import { createLogger, redactSecrets } from "@server/logger";

/* server/logger.ts: the secrets of links never reach a log line, whichever field or message quotes them. */

const TOKEN = "Z78AKyVLGaXVamgdxdfTTHh8DfDExqr7TduKZt9zB4c";

describe("redactSecrets", () => {
  it("replaces link tokens in paths, URLs and messages, and codes and signatures in query strings", () => {
    expect(redactSecrets(`/shareables/${TOKEN}`)).toBe("/shareables/[token]");
    expect(redactSecrets(`/shareables/${TOKEN}/media/abc/poster`)).toBe("/shareables/[token]/media/abc/poster");
    expect(redactSecrets(`http://127.0.0.1:3000/password-reset/${TOKEN}.data?x=1`)).toBe(
      "http://127.0.0.1:3000/password-reset/[token]?x=1",
    );
    expect(
      redactSecrets(
        `You made a POST request to "/shareables/${TOKEN}" but did not provide an \`action\` for route "routes/shareables/view"`,
      ),
    ).toBe('You made a POST request to "/shareables/[token]" but did not provide an `action` for route "routes/shareables/view"');
    expect(redactSecrets(`/login?redirectTo=%2Fshareables%2F${TOKEN}`)).toBe("/login?redirectTo=%2Fshareables%2F[token]");
    expect(redactSecrets(`/signup?code=${TOKEN}&x=1`)).toBe("/signup?code=[redacted]&x=1");
    expect(redactSecrets(`/api/v1/delivery/media/c/original?expires=9&signature=${TOKEN}`)).toBe(
      "/api/v1/delivery/media/c/original?expires=9&signature=[redacted]",
    );
  });

  it("leaves other paths and already redacted ones as they are", () => {
    for (const text of [
      "/shareables",
      "/shareables?revoke=12",
      "/password-reset",
      "/shareables/[token]",
      "routes/password-reset/token",
      "/b/artists/x/latest?sort=code",
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });
});

describe("createLogger", () => {
  it("writes every line redacted: fields, messages and errors", () => {
    const lines: string[] = [];
    const logger = createLogger("info", { write: (line: string) => void lines.push(line) }).child({ requestId: "r" });
    logger.error(
      { err: new Error(`No route matches URL "/password-reset/${TOKEN}"`), path: `/shareables/${TOKEN}` },
      `failed: /signup?code=${TOKEN}`,
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(TOKEN);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      path: "/shareables/[token]",
      msg: "failed: /signup?code=[redacted]",
      err: { message: 'No route matches URL "/password-reset/[token]"' },
    });
  });
});
