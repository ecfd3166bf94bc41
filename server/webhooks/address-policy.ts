import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from "node:dns";
import { isIP } from "node:net";
import type { Message } from "@core/messages";

/*
 * Where webhooks may not go (unless WEBHOOK_ALLOW_PRIVATE_TARGETS): private networks, this machine and the link
 * (cloud metadata services live at 169.254.169.254), and the other special-purpose ranges no receiver lives in.
 * Checked when a webhook is saved (its host resolved) and again for every delivery, on the address the
 * connection is made to (lookupPublicOnly), so a name that resolves elsewhere later (DNS rebinding) is refused too.
 */

export type AddressKind = "private" | "loopback" | "linkLocal" | "reserved";

/** [first address as a number, prefix length, kind] */
type Range4 = readonly [string, number, AddressKind];

const IPV4_RANGES: readonly Range4[] = [
  ["0.0.0.0", 8, "reserved"], // "this network", 0.0.0.0 reaches this machine
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "private"], // carrier-grade NAT
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "linkLocal"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "reserved"], // documentation
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"], // benchmarking
  ["198.51.100.0", 24, "reserved"],
  ["203.0.113.0", 24, "reserved"],
  ["224.0.0.0", 4, "reserved"], // multicast
  ["240.0.0.0", 4, "reserved"], // reserved, and the broadcast address
];

function ipv4ToNumber(address: string): number {
  return address.split(".").reduce((value, part) => value * 256 + Number(part), 0);
}

function classifyIpv4(address: string): AddressKind | null {
  const value = ipv4ToNumber(address);
  for (const [first, prefix, kind] of IPV4_RANGES) {
    const size = 2 ** (32 - prefix);
    const start = ipv4ToNumber(first);
    if (value >= start && value < start + size) return kind;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail expanded); null when malformed. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().split("%")[0] ?? "";
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const value = ipv4ToNumber(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const groups = halves.length === 2 ? [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

function classifyIpv6(address: string): AddressKind | null {
  const groups = ipv6Groups(address);
  if (!groups) return "reserved";
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = () => `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 0) return "reserved"; // ::
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 1) return "loopback"; // ::1
  // IPv4-mapped (::ffff:a.b.c.d) and the old IPv4-compatible form (::a.b.c.d) reach the IPv4 address inside.
  if (upperZero && (g5 === 0xffff || g5 === 0)) return classifyIpv4(embedded());
  // NAT64 (64:ff9b::a.b.c.d) reaches the IPv4 address inside too.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyIpv4(embedded());
  if ((g0 & 0xfe00) === 0xfc00) return "private"; // fc00::/7, unique local
  if ((g0 & 0xffc0) === 0xfe80) return "linkLocal"; // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return "private"; // fec0::/10, the old site-local
  if ((g0 & 0xff00) === 0xff00) return "reserved"; // multicast
  if (g0 === 0x2001 && g1 === 0x0db8) return "reserved"; // documentation
  return null;
}

/** Why an address is refused as a webhook target, or null for a public address. Anything not an IP is refused. */
export function classifyAddress(address: string): AddressKind | null {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const version = isIP(bare.split("%")[0] ?? "");
  if (version === 4) return classifyIpv4(bare);
  if (version === 6) return classifyIpv6(bare);
  return "reserved";
}

const KIND_MESSAGES = {
  private: "webhooks.errors.privateAddress",
  loopback: "webhooks.errors.loopbackAddress",
  linkLocal: "webhooks.errors.linkLocalAddress",
  reserved: "webhooks.errors.reservedAddress",
} as const;

/** The refusal of a target address, in the catalogue's words. */
export function addressRefusal(address: string, kind: AddressKind): Message {
  return { key: KIND_MESSAGES[kind], params: { address } };
}

/** A connection was about to go to a refused address. */
export class RefusedAddressError extends Error {
  readonly code = "WEBHOOK_REFUSED_ADDRESS";
  constructor(
    readonly address: string,
    readonly kind: AddressKind,
  ) {
    super(`refused webhook target address ${address} (${kind})`);
    this.name = "RefusedAddressError";
  }
}

/** The host of a URL as an IP address, when it is one (IPv6 without its brackets); else null. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : null;
}

function lookupAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}

export type TargetCheck =
  { ok: true } | { ok: false; reason: "refused"; message: Message } | { ok: false; reason: "notFound"; message: Message };

/**
 * Whether a webhook may be saved with this URL's host: an IP address is checked as it is, a name by every address
 * it resolves to (one refused address refuses the name: the connection could use any of them).
 */
export async function checkTarget(url: URL, allowPrivate: boolean): Promise<TargetCheck> {
  if (allowPrivate) return { ok: true };
  const literal = ipLiteral(url.hostname);
  const addresses = literal
    ? [literal]
    : await lookupAll(url.hostname).then(
        (found) => found.map((entry) => entry.address),
        () => null,
      );
  if (!addresses || addresses.length === 0)
    return { ok: false, reason: "notFound", message: { key: "webhooks.errors.hostNotFound", params: { host: url.hostname } } };
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind) return { ok: false, reason: "refused", message: addressRefusal(address, kind) };
  }
  return { ok: true };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http(s) that resolves the host and refuses the connection when any address it would use is
 * refused: the check and the connection use the same answer, so DNS rebinding gains nothing.
 */
export function lookupPublicOnly(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) {
      callback(error, []);
      return;
    }
    const refused = addresses.find((entry) => classifyAddress(entry.address) !== null);
    const first = addresses[0];
    if (refused) callback(new RefusedAddressError(refused.address, classifyAddress(refused.address) ?? "reserved"), []);
    else if (options.all) callback(null, addresses);
    else if (!first) callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), []);
    else callback(null, first.address, first.family);
  });
}
