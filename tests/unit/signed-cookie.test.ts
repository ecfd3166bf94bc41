import { createCookie, createCookieSessionStorage } from "react-router";
import { describe, expect, it } from "vitest";
import { createSignedCookie } from "@server/security/signed-cookie";

const SECRET = "a-session-secret-of-at-least-32-characters";
const value = { token: "abc", locale: "nl", note: "één ☃" };
const headerOf = (setCookie: string) => setCookie.split(";")[0]!;

describe("the signed session cookie (node:crypto, React Router's format)", () => {
  it("reads what React Router's cookie wrote, and React Router reads what it writes", async () => {
    const theirs = createCookie("vitrine_session", { secrets: [SECRET], httpOnly: true });
    const ours = createSignedCookie("vitrine_session", { secrets: [SECRET], httpOnly: true });
    expect(await ours.parse(headerOf(await theirs.serialize(value)))).toEqual(value);
    expect(await theirs.parse(headerOf(await ours.serialize(value)))).toEqual(value);
    expect(await ours.serialize(value)).toBe(await theirs.serialize(value));
  });

  it("refuses a changed value, a changed signature and another secret's cookie; accepts a rotated-out secret", async () => {
    const ours = createSignedCookie("s", { secrets: [SECRET] });
    const cookie = headerOf(await ours.serialize(value));
    const [data, signature] = cookie.slice(2).split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...value, token: "other" })).toString("base64");
    expect(await ours.parse(`s=${forged}.${signature}`)).toBeNull();
    expect(await ours.parse(`s=${data}.${signature.slice(0, -1)}A`)).toBeNull();
    expect(await ours.parse(`s=${data}`)).toBeNull();
    const other = createSignedCookie("s", { secrets: ["another-secret-of-at-least-32-characters!"] });
    expect(await other.parse(cookie)).toBeNull();
    const rotated = createSignedCookie("s", { secrets: ["the-new-secret-of-at-least-32-characters", SECRET] });
    expect(await rotated.parse(cookie)).toEqual(value);
  });

  it("reads a cookie verified before again as a fresh value, and still refuses its changed forms", async () => {
    const ours = createSignedCookie("s", { secrets: [SECRET] });
    const cookie = headerOf(await ours.serialize(value));
    const first = (await ours.parse(cookie)) as Record<string, unknown>;
    first.token = "changed by its reader";
    expect(await ours.parse(cookie)).toEqual(value);
    const [data, signature] = cookie.slice(2).split(".") as [string, string];
    expect(await ours.parse(`s=${data}.${signature.slice(0, -1)}A`)).toBeNull();
    expect(await ours.parse(`s=${data}x.${signature}`)).toBeNull();
    expect(await createSignedCookie("s", { secrets: ["another-secret-of-at-least-32-characters!"] }).parse(cookie)).toBeNull();
  });

  it("answers null without the cookie, and keeps the attributes it was given", async () => {
    const ours = createSignedCookie("s", { secrets: [SECRET], httpOnly: true, secure: true, maxAge: 60 });
    expect(await ours.parse(null)).toBeNull();
    expect(await ours.parse("other=1")).toBeNull();
    const header = await ours.serialize(value);
    expect(header).toMatch(/; Max-Age=60; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  });

  it("is taken by React Router's cookie session storage as the signed cookie it is, so sessions stay signed", async () => {
    // React Router recognises a cookie by its shape; one it did not recognise would be replaced by an unsigned one.
    const storage = createCookieSessionStorage<{ token: string }>({ cookie: createSignedCookie("s", { secrets: [SECRET] }) });
    const session = await storage.getSession();
    session.set("token", "abc");
    const cookie = headerOf(await storage.commitSession(session));
    expect((await storage.getSession(cookie)).get("token")).toBe("abc");
    const [name, signed] = cookie.split("=") as [string, string];
    const [payload] = decodeURIComponent(signed).split(".") as [string];
    const unsigned = `${name}=${encodeURIComponent(payload)}`;
    expect((await storage.getSession(unsigned)).get("token")).toBeUndefined();
  });
});
