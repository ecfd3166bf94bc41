import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@server/security/password";
import { hashToken, randomToken } from "@server/security/tokens";

describe("password hashing", () => {
  it("uses salted scrypt and verifies only the right password", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await hashPassword("correct horse")).not.toBe(hash);
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("Correct horse", hash)).toBe(false);
    expect(await verifyPassword("correct horse", "plain-text")).toBe(false);
  });

  it("verifies a hash with the cost it stores, so raising the default keeps old hashes valid", async () => {
    const cheaper = await hashPassword("correct horse", { N: 2 ** 10, r: 8, p: 1 });
    expect(cheaper).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword("correct horse", cheaper)).toBe(true);
    expect(await verifyPassword("correct hors", cheaper)).toBe(false);
  });

  it("stores tokens hashed", () => {
    const token = randomToken();
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(hashToken(token)).not.toContain(token);
    expect(hashToken(token)).toBe(hashToken(token));
  });
});
