import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

// scrypt is memory-hard: N=2^15, r=8 needs 32 MiB per hash.
const PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 };

/** scrypt's cost parameters; a hash stores its own, and a sign-in verifies with those. */
export type HashCost = Pick<typeof PARAMS, "N" | "r" | "p">;

function derive(password: string, salt: Buffer, options: { N: number; r: number; p: number; keyLength: number }) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, options.keyLength, { ...options, maxmem: 128 * options.N * options.r * 2 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * Returns `scrypt$N$r$p$salt$hash`, so parameters can be raised later. `cost` is for the tests' fixture users only:
 * every hash the product makes uses the default.
 */
export async function hashPassword(password: string, cost: HashCost = PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { ...cost, keyLength: PARAMS.keyLength });
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    keyLength: expected.length,
  });
  return timingSafeEqual(actual, expected);
}
