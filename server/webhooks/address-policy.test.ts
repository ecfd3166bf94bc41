import { describe, expect, it } from "vitest";
import { checkTarget, classifyAddress, ipLiteral } from "./address-policy";

describe("classifyAddress: where webhooks may not go", () => {
  it.each([
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.168.1.20", "private"],
    ["100.64.0.1", "private"],
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["169.254.169.254", "linkLocal"],
    ["0.0.0.0", "reserved"],
    ["255.255.255.255", "reserved"],
    ["224.0.0.251", "reserved"],
    ["::1", "loopback"],
    ["::", "reserved"],
    ["fc00::1", "private"],
    ["fd12:3456:789a::1", "private"],
    ["fe80::1", "linkLocal"],
    ["fe80::1%eth0", "linkLocal"],
    ["febf::1", "linkLocal"],
    ["ff02::1", "reserved"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:a9fe:a9fe", "linkLocal"],
    ["::ffff:192.168.0.1", "private"],
    ["64:ff9b::10.0.0.1", "private"],
    ["[::1]", "loopback"],
    ["not an address", "reserved"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.15.255.255",
    "172.32.0.1",
    "192.169.0.1",
    "11.0.0.1",
    "169.253.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82a::200e",
    "::ffff:8.8.8.8",
  ])("%s is public", (address) => {
    expect(classifyAddress(address)).toBeNull();
  });

  it("takes a URL's bracketed IPv6 host and normalised IPv4 forms", () => {
    expect(ipLiteral(new URL("http://[::ffff:127.0.0.1]:8080/x").hostname)).toBe("::ffff:7f00:1");
    expect(classifyAddress(ipLiteral(new URL("http://[::ffff:127.0.0.1]/").hostname) ?? "")).toBe("loopback");
    // WHATWG URL parsing turns these spellings of 127.0.0.1 into the dotted form.
    expect(ipLiteral(new URL("http://2130706433/").hostname)).toBe("127.0.0.1");
    expect(ipLiteral(new URL("http://0x7f.1/").hostname)).toBe("127.0.0.1");
    expect(ipLiteral("example.org")).toBeNull();
  });
});

describe("checkTarget: the check when a webhook is saved", () => {
  it("refuses private, loopback and link-local IP addresses with a message naming the address", async () => {
    expect(await checkTarget(new URL("http://10.1.2.3/hook"), false)).toEqual({
      ok: false,
      reason: "refused",
      message: { key: "webhooks.errors.privateAddress", params: { address: "10.1.2.3" } },
    });
    expect(await checkTarget(new URL("http://[::1]:9000/hook"), false)).toMatchObject({
      ok: false,
      message: { key: "webhooks.errors.loopbackAddress" },
    });
    expect(await checkTarget(new URL("http://169.254.169.254/latest/meta-data"), false)).toMatchObject({
      ok: false,
      message: { key: "webhooks.errors.linkLocalAddress" },
    });
  });

  it("resolves a name and refuses it when it points at this machine", async () => {
    expect(await checkTarget(new URL("http://localhost:3000/hook"), false)).toMatchObject({
      ok: false,
      reason: "refused",
      message: { key: "webhooks.errors.loopbackAddress" },
    });
  });

  it("says so when a name does not resolve", async () => {
    expect(await checkTarget(new URL("https://no-such-host.invalid/hook"), false)).toEqual({
      ok: false,
      reason: "notFound",
      message: { key: "webhooks.errors.hostNotFound", params: { host: "no-such-host.invalid" } },
    });
  });

  it("allows anything when the configuration allows private targets", async () => {
    expect(await checkTarget(new URL("http://127.0.0.1:9/hook"), true)).toEqual({ ok: true });
    expect(await checkTarget(new URL("http://93.184.215.14/hook"), false)).toEqual({ ok: true });
  });
});
