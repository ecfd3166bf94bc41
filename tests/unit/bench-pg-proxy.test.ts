// The benchmark's counting PostgreSQL proxy (bench/lib/pg-proxy.mjs) reads the protocol right: round trips,
// statements parsed and run, across chunk boundaries and pipelined batches, and nothing during the start-up.
import { describe, expect, it } from "vitest";
import { connectionCounter, emptyCounts, messageSplitter } from "../../bench/lib/pg-proxy.mjs";

const typed = (type: string, body = Buffer.alloc(0)) => {
  const header = Buffer.alloc(5);
  header.write(type, 0, "latin1");
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
};
const cString = (text: string) => Buffer.from(`${text}\0`);
const startupMessage = () => {
  const body = Buffer.concat([Buffer.from([0, 3, 0, 0]), cString("user"), cString("postgres"), Buffer.from([0])]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(4 + body.length);
  return Buffer.concat([length, body]);
};
// What pg sends for one parameterised query: Parse, Bind, Describe, Execute, Sync.
const extendedQuery = () =>
  Buffer.concat([
    typed("P", Buffer.concat([cString(""), cString("SELECT $1"), Buffer.from([0, 0])])),
    typed("B", Buffer.alloc(12)),
    typed("D", Buffer.from("P\0")),
    typed("E", Buffer.alloc(5)),
    typed("S"),
  ]);
const readyForQuery = () => typed("Z", Buffer.from("I"));
const authenticated = () => Buffer.concat([typed("R", Buffer.alloc(4)), typed("K", Buffer.alloc(8)), readyForQuery()]);

function connection() {
  const counts = emptyCounts();
  return { counts, ...connectionCounter(() => counts) };
}

describe("bench pg proxy", () => {
  it("splits typed messages however the bytes are chunked", () => {
    const seen: string[] = [];
    const push = messageSplitter((type) => seen.push(type), { startup: true });
    const bytes = Buffer.concat([startupMessage(), extendedQuery(), typed("Q", cString("BEGIN"))]);
    for (let at = 0; at < bytes.length; at += 3) push(bytes.subarray(at, at + 3));
    expect(seen).toEqual(["startup", "P", "B", "D", "E", "S", "Q"]);
  });

  it("counts one round trip, one parse and one execution per query after the start-up", () => {
    const c = connection();
    c.fromClient(startupMessage());
    c.fromServer(authenticated());
    expect(c.counts).toEqual(emptyCounts());
    for (let query = 0; query < 3; query++) {
      c.fromClient(extendedQuery());
      c.fromServer(readyForQuery());
    }
    c.fromClient(typed("Q", cString("SELECT 1; SELECT 2")));
    c.fromServer(readyForQuery());
    expect(c.counts).toEqual({ syncs: 4, roundTrips: 4, parses: 3, executes: 4 });
  });

  it("counts batches sent before any answer (pipelined) as one round trip", () => {
    const c = connection();
    c.fromClient(startupMessage());
    c.fromServer(authenticated());
    c.fromClient(Buffer.concat([extendedQuery(), extendedQuery()]));
    c.fromClient(extendedQuery());
    c.fromServer(Buffer.concat([readyForQuery(), readyForQuery(), readyForQuery()]));
    expect(c.counts).toEqual({ syncs: 3, roundTrips: 1, parses: 3, executes: 3 });
  });

  it("counts a prepared statement's reuse as no parse", () => {
    const c = connection();
    c.fromClient(startupMessage());
    c.fromServer(authenticated());
    c.fromClient(Buffer.concat([typed("B", Buffer.alloc(12)), typed("E", Buffer.alloc(5)), typed("S")]));
    c.fromServer(readyForQuery());
    expect(c.counts).toEqual({ syncs: 1, roundTrips: 1, parses: 0, executes: 1 });
  });
});
