import { describe, expect, it } from "vitest";
import { bearerToken, parseClientToken } from "@server/security/bearer";
import { carriesCookie, isCrossSiteRequest } from "@server/security/csrf";
import { clientExpiry, todayUtc } from "@core/account-schemas";

/* How a request says who it is: a bearer token (API clients) or the session cookie, and where it comes from. */

const request = (headers: Record<string, string>, method = "POST") => new Request("http://cms.example.test/save", { method, headers });

describe("bearerToken", () => {
  it("reads the credentials of a Bearer header, any case of the scheme, trimmed", () => {
    expect(bearerToken(request({ Authorization: "Bearer abc.def" }))).toBe("abc.def");
    expect(bearerToken(request({ Authorization: "bearer   abc.def  " }))).toBe("abc.def");
    expect(bearerToken(request({ Authorization: "Bearer" }))).toBe("");
  });

  it("is null without an Authorization header or with another scheme", () => {
    expect(bearerToken(request({}))).toBeNull();
    expect(bearerToken(request({ Authorization: "Basic dXNlcjpwYXNz" }))).toBeNull();
    expect(bearerToken(request({ Authorization: "Bearerish abc" }))).toBeNull();
  });
});

describe("parseClientToken", () => {
  const id = "1b4e28ba-2fa1-41d2-883f-0016d3cca427";
  const secret = "A".repeat(42) + "_";
  it("splits <uuid>.<43 base64url characters>, the id lower-cased", () => {
    expect(parseClientToken(`${id.toUpperCase()}.${secret}`)).toEqual({ clientId: id, secret });
  });
  it("refuses anything else", () => {
    for (const token of [
      "",
      id,
      `${id}.`,
      `${id}.${secret}A`,
      `${id}.${secret.slice(1)}`,
      `${id}.${"A".repeat(42)}=`,
      `x${id}.${secret}`,
      `${id}.${secret}.${secret}`,
    ]) {
      expect(parseClientToken(token), token).toBeNull();
    }
  });
});

describe("isCrossSiteRequest", () => {
  const cookie = "vitrine_session";
  it("refuses a write with the session cookie and no Origin, Referer or Sec-Fetch-Site", () => {
    expect(isCrossSiteRequest(request({ Cookie: "vitrine_session=abc" }), undefined, cookie)).toBe(true);
    expect(isCrossSiteRequest(request({ Cookie: "other=1; vitrine_session=abc" }), undefined, cookie)).toBe(true);
  });
  it("accepts it with any same-origin sign, without the cookie, or as a GET", () => {
    expect(isCrossSiteRequest(request({ Cookie: "vitrine_session=abc", Origin: "http://cms.example.test" }), undefined, cookie)).toBe(
      false,
    );
    expect(isCrossSiteRequest(request({ Cookie: "vitrine_session=abc", Referer: "http://cms.example.test/b/x" }), undefined, cookie)).toBe(
      false,
    );
    expect(isCrossSiteRequest(request({ Cookie: "vitrine_session=abc", "Sec-Fetch-Site": "same-origin" }), undefined, cookie)).toBe(false);
    expect(isCrossSiteRequest(request({ Cookie: "vitrine_sessionx=abc; other=vitrine_session" }), undefined, cookie)).toBe(false);
    expect(isCrossSiteRequest(request({}), undefined, cookie)).toBe(false);
    expect(isCrossSiteRequest(request({ Cookie: "vitrine_session=abc" }, "GET"), undefined, cookie)).toBe(false);
  });
  it("refuses a foreign Referer when no Origin is sent, and accepts PUBLIC_URL's", () => {
    expect(isCrossSiteRequest(request({ Referer: "https://evil.example/" }))).toBe(true);
    expect(isCrossSiteRequest(request({ Referer: "https://cms.example.org/page" }), "https://cms.example.org")).toBe(false);
  });
  it("finds a cookie by its exact name", () => {
    expect(carriesCookie(request({ Cookie: "a=1; vitrine_session=" }), cookie)).toBe(true);
    expect(carriesCookie(request({ Cookie: "a=vitrine_session" }), cookie)).toBe(false);
  });
});

describe("API client expiry", () => {
  it("ends at the end of the chosen day (UTC)", () => {
    expect(clientExpiry("2030-06-01").toISOString()).toBe("2030-06-01T23:59:59.999Z");
    expect(todayUtc(new Date("2030-06-01T23:30:00Z"))).toBe("2030-06-01");
  });
});
