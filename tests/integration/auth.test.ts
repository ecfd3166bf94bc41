import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";
import { createTestUser, get, postForm, signIn } from "../support/http";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

describe("sign-in", () => {
  it("signs in with the right password and reaches home", async () => {
    const user = await createTestUser(server.db);
    const cookie = await signIn(server.url, user.email, user.password);
    const home = await get(server.url, "/", cookie);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(user.name);
  });

  it("answers 'unknown user' and 'incorrect password' exactly", async () => {
    const user = await createTestUser(server.db);
    const unknown = await postForm(server.url, "/login", { email: "nobody@example.test", password: "whatever" });
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toContain("unknown user");
    const wrong = await postForm(server.url, "/login", { email: user.email, password: "wrong password" });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("incorrect password");
  });
});
