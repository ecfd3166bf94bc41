// A counting TCP proxy between a server and PostgreSQL: it forwards every byte untouched and reads the protocol on
// the way (https://www.postgresql.org/docs/current/protocol-message-formats.html) to count, after the start-up:
//   syncs      Sync ('S') and simple Query ('Q') messages: each ends a batch the server answers with ReadyForQuery
//   roundTrips times the client sent something while it waited for nothing: batches sent back to back (pipelined)
//              are one round trip; without pipelining it equals syncs
//   parses     Parse ('P') messages: statements parsed; near zero means prepared statements are reused
//   executes   Execute ('E') and simple Query ('Q') messages: statements run
// and, apart from those counts, how often each SQL text ran (statements()): what a server does while idle.
import net from "node:net";

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/**
 * Splits a stream of protocol messages into their type bytes. A client's stream starts with untyped start-up
 * messages (`startup: true`): length, then a code (SSLRequest, GSSENCRequest, StartupMessage, CancelRequest).
 * onMessage(type, body) gets the type character ("startup", "ssl" for the untyped ones) and the message's body.
 */
export function messageSplitter(onMessage, { startup = false } = {}) {
  let pending = Buffer.alloc(0);
  let inStartup = startup;
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (inStartup) {
        if (pending.length < 8) return;
        const length = pending.readInt32BE(0);
        if (pending.length < length) return;
        const code = pending.readInt32BE(4);
        const isEncryptionRequest = code === SSL_REQUEST || code === GSSENC_REQUEST;
        onMessage(isEncryptionRequest ? "ssl" : "startup", pending.subarray(4, length));
        if (!isEncryptionRequest) inStartup = false;
        pending = pending.subarray(length);
      } else {
        if (pending.length < 5) return;
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) return;
        onMessage(String.fromCharCode(pending[0]), pending.subarray(5, 1 + length));
        pending = pending.subarray(1 + length);
      }
    }
  };
}

export function emptyCounts() {
  return { syncs: 0, roundTrips: 0, parses: 0, executes: 0 };
}

/** The NUL-terminated string at `offset` of a message's body, and the offset after it. */
function cString(body, offset = 0) {
  const end = body.indexOf(0, offset);
  const stop = end < 0 ? body.length : end;
  return [body.toString("utf8", offset, stop), stop + 1];
}

/**
 * The statements one connection (or one PGlite) runs, by SQL text: onStatement(text) per Execute or simple Query.
 * A Parse names a text (a named prepared statement is parsed once per connection and then only bound), a Bind
 * ties a portal to a statement, an Execute runs the portal's; a simple Query runs its own text (counted once, even
 * with several statements in it). Feed it (type, body) as messageSplitter's onMessage.
 */
export function statementReader(onStatement) {
  const texts = new Map(); // statement name → SQL text
  const portals = new Map(); // portal name → SQL text
  return (type, body) => {
    if (type === "P") {
      const [name, at] = cString(body);
      texts.set(name, cString(body, at)[0]);
    } else if (type === "B") {
      const [portal, at] = cString(body);
      portals.set(portal, texts.get(cString(body, at)[0]) ?? "(a statement prepared before the count began)");
    } else if (type === "E") {
      onStatement(portals.get(cString(body)[0]) ?? "(an unknown portal)");
    } else if (type === "Q") {
      onStatement(cString(body)[0]);
    }
  };
}

/**
 * The counting of one connection: fromClient(chunk) and fromServer(chunk) as the bytes pass. Counts go to
 * countsOf() (the proxy's current counts, shared between connections) once the connection is past its start-up
 * (the first ReadyForQuery); each statement run, by its text, to onStatement(text) when given.
 */
export function connectionCounter(countsOf, onStatement) {
  const readStatement = onStatement ? statementReader(onStatement) : null;
  let ready = false; // past authentication: the server sent its first ReadyForQuery
  let waitingFor = 0; // Syncs and Queries sent and not yet answered with ReadyForQuery
  let inFlight = false;
  const fromClient = messageSplitter(
    (type, body) => {
      if (!ready || type === "startup" || type === "ssl") return;
      readStatement?.(type, body);
      const counts = countsOf();
      if (!inFlight && waitingFor === 0) {
        counts.roundTrips += 1;
        inFlight = true;
      }
      if (type === "S" || type === "Q") {
        counts.syncs += 1;
        waitingFor += 1;
      }
      if (type === "P") counts.parses += 1;
      if (type === "E" || type === "Q") counts.executes += 1;
    },
    { startup: true },
  );
  const fromServer = messageSplitter((type) => {
    if (type !== "Z") return;
    if (!ready) {
      ready = true;
      return;
    }
    waitingFor = Math.max(0, waitingFor - 1);
    if (waitingFor === 0) inFlight = false;
  });
  return { fromClient, fromServer };
}

/**
 * Listens on a free loopback port and forwards to `target` ({ host, port }). Answers { port, counts(),
 * statements(), reset(), close() }; statements() is { [SQL text]: times run } since the last reset. A client asking
 * for SSL is told no (the proxy reads plain text only).
 */
export async function startPgProxy(target) {
  let counts = emptyCounts();
  let byStatement = new Map();
  const ran = (text) => byStatement.set(text, (byStatement.get(text) ?? 0) + 1);
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const counter = connectionCounter(() => counts, ran);
    let sawStartup = false;
    client.on("data", (chunk) => {
      // An SSLRequest is answered here ('N': no encryption), never forwarded; the client then starts in plain text.
      if (!sawStartup && chunk.length >= 8 && chunk.readInt32BE(0) === 8 && [SSL_REQUEST, GSSENC_REQUEST].includes(chunk.readInt32BE(4))) {
        client.write("N");
        return;
      }
      sawStartup = true;
      counter.fromClient(chunk);
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      counter.fromServer(chunk);
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    counts: () => ({ ...counts }),
    statements: () => Object.fromEntries(byStatement),
    reset: () => {
      counts = emptyCounts();
      byStatement = new Map();
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
