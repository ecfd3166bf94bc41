import { expect } from "vitest";
import { createApiClient } from "@server/accounts/api-clients";
import type { Db } from "@server/db/client";
import { createTestUser } from "./http";
import type { DeliveryDocument } from "@core/delivery/shape";

/* The delivery API's tests: clients made directly, calls with their bearer token, problem answers checked. */

let counter = 0;
const admins = new WeakMap<Db, ReturnType<typeof createTestUser>>();

/** A live API client reading these bucket slugs (with `preview`: version=newest and release= too): its token. */
export async function deliveryClient(db: Db, scope: { read: string[]; origins?: string[]; expiresAt?: Date | null; preview?: boolean }) {
  if (!admins.has(db)) admins.set(db, createTestUser(db, { name: "Delivery admin", permissions: ["user", "admin"] }));
  const admin = await admins.get(db)!;
  const { client, token } = await createApiClient(
    db,
    { id: admin.id, name: admin.name },
    {
      name: `Exhibit app ${++counter}`,
      readBuckets: scope.read,
      writeBuckets: [],
      allowedOrigins: scope.origins ?? [],
      preview: scope.preview ?? false,
      expiresAt: scope.expiresAt ?? null,
    },
  );
  return { client, token };
}

/** GET (or another method) with the client's token; `token: null` sends none. */
export function deliver(baseUrl: string, path: string, token: string | null, headers: Record<string, string> = {}, method = "GET") {
  return fetch(`${baseUrl}${path}`, {
    method,
    redirect: "manual",
    headers: { ...(token === null ? {} : { Authorization: `Bearer ${token}` }), ...headers },
  });
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  parameter?: string;
}

/** An RFC 9457 problem answer with this status (and, for a 400, the parameter it names). */
export async function expectProblem(response: Response, status: number, parameter?: string): Promise<ProblemBody> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as ProblemBody;
  expect(body).toMatchObject({
    status,
    type: expect.stringMatching(/^urn:vitrine:problem:/),
    title: expect.any(String),
    detail: expect.any(String),
  });
  if (parameter !== undefined) expect(body.parameter).toBe(parameter);
  return body;
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return (await response.json()) as T;
}

/** A document as the delivery API answers it. */
export type Doc = DeliveryDocument;
