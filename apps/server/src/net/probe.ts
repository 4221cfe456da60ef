import net from 'node:net';
import tls, { type TLSSocket } from 'node:tls';
import { parseHostInput, type AddressPolicy } from './address.ts';
import type { ConnectToRule } from './connect-to.ts';
import { NetError } from './errors.ts';
import { type HandshakeRestriction, tlsReport, trustingContext, type TlsReport } from './http.ts';
import {
  RETRY_NEXT_ADDRESS,
  checkedTarget,
  connectFailure,
  tlsHandshakeFailure,
  type AddressResolver,
  type CheckedTarget,
} from './target.ts';

export interface ProbeLimits {
  /** TCP connect, per address tried. */
  connectTimeoutMs: number;
  /** Bytes one connection may read in all; a peer that sends more is cut off. */
  maxReadBytes: number;
}

export const DEFAULT_PROBE_LIMITS: Readonly<ProbeLimits> = {
  connectTimeoutMs: 5_000,
  maxReadBytes: 256 * 1024,
};

/** Why a read stopped. */
export type ReadEnd = 'enough' | 'closed' | 'timeout' | 'cap' | 'aborted';

export interface ProbeRead {
  /** Everything received on the connection that no earlier read consumed. */
  bytes: Uint8Array;
  end: ReadEnd;
}

export interface TlsHandshakeResult {
  report: TlsReport;
  /** The stapled OCSP response (RFC 6066 §8), when the server sent one. */
  ocspResponse: Uint8Array | undefined;
  /** A session ticket arrived (RFC 5077; in TLS 1.3 a NewSessionTicket after the handshake, RFC 8446 §4.6.1). */
  sessionTicket: boolean;
}

/** How long to wait after a TLS 1.3 handshake for the NewSessionTicket servers send right after it. */
const TICKET_WAIT_MS = 150;

/**
 * One raw TCP connection to a checked address, for protocol probes that write their own bytes
 * (ClientHellos, STARTTLS commands). Reads are bounded in time and in total bytes.
 */
export interface ProbeConnection {
  readonly address: string;
  readonly port: number;
  write(bytes: Uint8Array | string): void;
  /**
   * Waits until `enough(received)` is true for the unconsumed bytes, the peer closes, `timeoutMs`
   * passes or the byte cap is reached; then returns the bytes and consumes them.
   */
  read(enough: (received: Uint8Array) => boolean, timeoutMs: number): Promise<ProbeRead>;
  /**
   * A full TLS handshake by Node over this connection (after any STARTTLS exchange), to read the
   * certificate chain, its verification against the trust store and OUTBOUND_CA_FILE, ALPN and
   * OCSP stapling. Old versions and suites are allowed: a scanner must see their certificates too.
   * `restriction` asks for the certificate of one key type, on servers that have several.
   */
  handshake(options: {
    servername?: string;
    alpn?: readonly string[];
    restriction?: HandshakeRestriction;
    /**
     * `false`: no trust store in the handshake, so the chain read is exactly what the server sent
     * (Node adds an issuer it finds in the store to the peer's chain) and is not verified.
     */
    trustStore?: boolean;
    timeoutMs: number;
  }): Promise<TlsHandshakeResult>;
  /**
   * Starts TLS on this connection (implicit TLS, or after a STARTTLS exchange) and keeps it open:
   * the returned connection reads and writes through TLS with the same limits. Bytes received
   * before the handshake and not read are dropped (RFC 3207 §4.2: nothing from before TLS counts).
   */
  secure(options: { servername?: string; timeoutMs: number }): Promise<{
    report: TlsReport;
    connection: ProbeConnection;
  }>;
  close(): void;
}

export interface ProbeClient {
  /** The certificates a chain is verified against: Node's store and OUTBOUND_CA_FILE, as PEM. */
  readonly trustAnchors: readonly string[];
  /** Resolves and checks `host` (a name or address literal) for `port`: OUTBOUND_BLOCKED, DNS errors. */
  target(host: string, port: number, signal?: AbortSignal): Promise<CheckedTarget>;
  /** Opens a TCP connection to the first checked address that answers: CONNECT_FAILED, CONNECT_TIMEOUT. */
  connect(
    target: CheckedTarget,
    options?: { signal?: AbortSignal; limits?: Partial<ProbeLimits> },
  ): Promise<ProbeConnection>;
}

export interface ProbeClientOptions {
  resolver: AddressResolver;
  policy: AddressPolicy;
  connectTo: readonly ConnectToRule[];
  /** Trust anchors (PEM) added to Node's store for the certificate handshake (OUTBOUND_CA_FILE). */
  extraCa: readonly string[];
  limits?: Partial<ProbeLimits>;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function refuseLookup(): never {
  throw new Error('refusing a second lookup: probes connect to checked addresses only');
}

function openSocket(
  target: CheckedTarget,
  address: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port: target.port, lookup: refuseLookup });
    // the user's host and port only: the address may be a lab's connect-to target
    const where = `port ${target.urlPort} at ${target.host}`;
    const settle = (error: Error | undefined): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.off('error', onError);
      if (error === undefined) resolve(socket);
      else {
        socket.destroy();
        reject(error);
      }
    };
    const onError = (error: NodeJS.ErrnoException): void =>
      settle(
        Object.assign(new NetError('CONNECT_FAILED', connectFailure(target, error.code), { cause: error }), {
          errno: error.code,
        }),
      );
    const onAbort = (): void => settle(signal?.reason as Error);
    const timer = setTimeout(
      () => settle(new NetError('CONNECT_TIMEOUT', `Nothing answered on ${where} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('error', onError);
    socket.once('connect', () => settle(undefined));
  });
}

function probeConnection(
  socket: net.Socket,
  target: CheckedTarget,
  address: string,
  limits: ProbeLimits,
  extraCa: readonly string[],
  signal: AbortSignal | undefined,
): ProbeConnection {
  let buffered: Uint8Array = new Uint8Array(0);
  let total = 0;
  let closed = false;
  let capped = false;
  let wake: (() => void) | undefined;
  const onData = (chunk: Buffer): void => {
    const room = limits.maxReadBytes - total;
    const piece = chunk.subarray(0, Math.max(0, room));
    total += piece.length;
    buffered = concat(buffered, new Uint8Array(piece));
    if (chunk.length > room) {
      capped = true;
      socket.destroy();
    }
    wake?.();
  };
  const onEnd = (): void => {
    closed = true;
    wake?.();
  };
  socket.on('data', onData);
  socket.on('end', onEnd);
  socket.on('close', onEnd);
  socket.on('error', onEnd);
  const onAbort = (): void => {
    socket.destroy();
    wake?.();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const detach = (): void => {
    socket.off('data', onData);
    socket.off('end', onEnd);
    socket.off('close', onEnd);
    signal?.removeEventListener('abort', onAbort);
  };

  return {
    address,
    port: target.port,
    write(bytes) {
      if (!closed && !socket.destroyed) socket.write(typeof bytes === 'string' ? bytes : Buffer.from(bytes));
    },
    read(enough, timeoutMs) {
      return new Promise((resolve) => {
        const finish = (end: ReadEnd): void => {
          clearTimeout(timer);
          wake = undefined;
          const bytes = buffered;
          buffered = new Uint8Array(0);
          resolve({ bytes, end });
        };
        const check = (): void => {
          if (enough(buffered)) finish('enough');
          else if (signal?.aborted) finish('aborted');
          else if (capped) finish('cap');
          else if (closed) finish('closed');
        };
        const timer = setTimeout(() => finish('timeout'), timeoutMs);
        wake = check;
        check();
      });
    },
    handshake(options) {
      detach();
      return new Promise((resolve, reject) => {
        let ocspResponse: Uint8Array | undefined;
        const secure: TLSSocket = tls.connect({
          socket,
          ...(options.servername === undefined ? {} : { servername: options.servername }),
          secureContext: trustingContext(extraCa, true, options.restriction, options.trustStore ?? true),
          rejectUnauthorized: false,
          requestOCSP: true,
          ...(options.alpn === undefined ? {} : { ALPNProtocols: [...options.alpn] }),
        });
        const timer = handshakeTimer(secure, target, options.timeoutMs, reject);
        secure.once('OCSPResponse', (response: Buffer | null) => {
          if (response !== null && response.length > 0) ocspResponse = new Uint8Array(response);
        });
        secure.once('error', (error) => {
          clearTimeout(timer);
          secure.destroy();
          reject(new NetError('TLS_HANDSHAKE_FAILED', tlsHandshakeFailure(target, error), { cause: error }));
        });
        let sessionTicket = false;
        let finish: (() => void) | undefined;
        secure.on('session', () => {
          sessionTicket = true;
          finish?.();
        });
        secure.once('secureConnect', () => {
          clearTimeout(timer);
          const report = tlsReport(secure, options.servername, target.host);
          let done = false;
          finish = () => {
            if (done) return;
            done = true;
            clearTimeout(ticketTimer);
            secure.destroy();
            resolve({ report, ocspResponse, sessionTicket });
          };
          // TLS 1.2 tickets come within the handshake; TLS 1.3 ones just after it, read only
          // while the socket flows
          secure.resume();
          const ticketTimer = setTimeout(
            finish,
            report.protocol === 'TLSv1.3' && !sessionTicket ? TICKET_WAIT_MS : 0,
          );
        });
      });
    },
    secure(options) {
      detach();
      return new Promise((resolve, reject) => {
        const secure: TLSSocket = tls.connect({
          socket,
          ...(options.servername === undefined ? {} : { servername: options.servername }),
          secureContext: trustingContext(extraCa, true, undefined, true),
          rejectUnauthorized: false,
        });
        const timer = handshakeTimer(secure, target, options.timeoutMs, reject);
        secure.once('error', (error) => {
          clearTimeout(timer);
          secure.destroy();
          reject(new NetError('TLS_HANDSHAKE_FAILED', tlsHandshakeFailure(target, error), { cause: error }));
        });
        secure.once('secureConnect', () => {
          clearTimeout(timer);
          secure.removeAllListeners('error');
          resolve({
            report: tlsReport(secure, options.servername, target.host),
            connection: probeConnection(secure, target, address, limits, extraCa, signal),
          });
        });
      });
    },
    close() {
      detach();
      socket.destroy();
    },
  };
}

function handshakeTimer(
  secure: TLSSocket,
  target: CheckedTarget,
  timeoutMs: number,
  reject: (error: Error) => void,
): NodeJS.Timeout {
  return setTimeout(() => {
    secure.destroy();
    reject(
      new NetError(
        'TIMEOUT',
        `The TLS handshake with ${target.host} on port ${target.urlPort} took longer than ${timeoutMs} ms`,
      ),
    );
  }, timeoutMs);
}

/** The guarded raw-TCP client of the outbound layer (docs/architecture.md §6), for TLS and STARTTLS probes. */
export function createProbeClient(options: ProbeClientOptions): ProbeClient {
  const baseLimits = { ...DEFAULT_PROBE_LIMITS, ...options.limits };
  return {
    get trustAnchors() {
      return [...tls.getCACertificates('default'), ...options.extraCa];
    },
    target(host, port, signal) {
      const parsed = parseHostInput(host);
      if (parsed === undefined)
        return Promise.reject(
          new NetError('INVALID_URL', `Not a host name or IP address: ${JSON.stringify(host.slice(0, 200))}`),
        );
      return checkedTarget(options, parsed, port, {
        signal: signal ?? new AbortController().signal,
        verb: 'connect to',
        details: { host, port },
      });
    },
    async connect(target, connectOptions = {}) {
      const limits = { ...baseLimits, ...connectOptions.limits };
      let lastError: unknown;
      for (const address of target.addresses) {
        try {
          const socket = await openSocket(target, address, limits.connectTimeoutMs, connectOptions.signal);
          return probeConnection(socket, target, address, limits, options.extraCa, connectOptions.signal);
        } catch (error) {
          lastError = error;
          const errno = (error as { errno?: string }).errno;
          if (errno === undefined || !RETRY_NEXT_ADDRESS.has(errno)) break;
        }
      }
      throw lastError;
    },
  };
}
