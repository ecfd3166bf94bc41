import net from "node:net";

/**
 * A TCP proxy to put between the server and its database, to take the
 * database away and bring it back without touching the database itself.
 */
export interface TcpProxy {
  port: number;
  /** Drops every open connection; new ones are accepted and dropped at once (a database restarting). */
  cut(): void;
  /** Drops every open connection and stops listening: new ones are refused (a database that is down). */
  refuse(): Promise<void>;
  /** Passes connections through again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let dropping = false;
  const server = net.createServer((client) => {
    if (dropping) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("error", drop);
      socket.on("close", drop);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  const dropAll = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    cut() {
      dropping = true;
      dropAll();
    },
    async refuse() {
      dropping = true;
      dropAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async restore() {
      dropping = false;
      if (!server.listening) await listen(port);
    },
    async close() {
      dropAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
