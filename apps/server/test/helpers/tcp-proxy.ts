import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP relay on 127.0.0.1 in front of a real server, which a test can cut and restore: a
 * database outage (open connections dropped, new ones refused) without stopping a database
 * other suites share.
 */
export interface TcpProxy {
  readonly port: number;
  /** `url` with its host and port replaced by the relay's. */
  via(url: string): string;
  /** Drops every relayed connection and stops listening (connects are refused). */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // a reset on one side is the test's outage, not a failure of the relay
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((inbound) => {
    const outbound = connect(target.port, target.host);
    track(inbound);
    track(outbound);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  const port = await listen(server, 0);
  let listening = true;

  async function cut(): Promise<void> {
    if (listening) {
      listening = false;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    }
  }

  return {
    port,
    via(url) {
      const relayed = new URL(url);
      relayed.hostname = '127.0.0.1';
      relayed.port = String(port);
      return relayed.href;
    },
    cut,
    async restore() {
      if (!listening) {
        await listen(server, port);
        listening = true;
      }
    },
    close: cut,
  };
}
