// Tests may only ever talk to 127.0.0.0/8 and ::1. This guard sits under every socket the
// process opens (TCP and TLS through net.Socket#connect, UDP through dgram, name lookups
// through node:dns) and refuses anything else before a packet leaves, recording it so that
// the test that tried fails even when the code under test swallowed the error.
import dgram from 'node:dgram';
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

export interface ConnectViolation {
  kind: 'tcp' | 'udp' | 'lookup';
  target: string;
}

/** 127.0.0.0/8, ::1 and the IPv4-mapped form of 127.0.0.0/8. */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  if (!net.isIPv6(bare)) return false;
  if (/^::ffff:127\.\d+\.\d+\.\d+$/.test(bare)) return true;
  if (/^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(bare)) return true;
  return new net.SocketAddress({ address: bare, family: 'ipv6' }).address === '::1';
}

/** Names that never leave the machine: `localhost` (from /etc/hosts) and loopback literals. */
export function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || isLoopbackAddress(name);
}

/** Where a Socket#connect call is going: `{ path }` for a Unix socket, else host and port. */
export function connectTarget(args: readonly unknown[]): { path: string } | { host: string; port: unknown } {
  // net.connect passes its normalized [options, callback] array as the only argument
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === 'object' && first !== null) {
    const options = first as { path?: string; host?: string; port?: unknown };
    if (typeof options.path === 'string') return { path: options.path };
    return { host: options.host ?? 'localhost', port: options.port };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first };
  return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: first };
}

/** Where a dgram send/connect call is going (the first string after the message and ports). */
export function datagramTarget(args: readonly unknown[], skipMessage: boolean): string | undefined {
  const rest = skipMessage ? args.slice(1) : args;
  const address = rest.find((arg) => typeof arg === 'string');
  return typeof address === 'string' ? address : undefined;
}

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

export interface ConnectGuard {
  readonly violations: ConnectViolation[];
  /** Socket#connect that refuses non-loopback targets and passes the rest to `original`. */
  wrapSocketConnect(original: AnyFunction): AnyFunction;
  wrapDatagramSend(original: AnyFunction): AnyFunction;
  wrapDatagramConnect(original: AnyFunction): AnyFunction;
  /** dns.lookup: local names and address literals only (getaddrinfo answers those without DNS). */
  wrapLookup(original: AnyFunction): AnyFunction;
  /** dns.resolve*, dns.reverse: always a query to the system's DNS servers, so never. */
  wrapResolver(original: AnyFunction): AnyFunction;
}

function refusal(violation: ConnectViolation): Error {
  return Object.assign(
    new Error(
      `connect guard: tests may not reach ${violation.target} (${violation.kind}); only 127.0.0.0/8 and ::1`,
    ),
    { code: 'ECONNREFUSED' },
  );
}

export function createConnectGuard(): ConnectGuard {
  const violations: ConnectViolation[] = [];
  const record = (violation: ConnectViolation): Error => {
    violations.push(violation);
    return refusal(violation);
  };
  return {
    violations,
    wrapSocketConnect(original) {
      return function guardedConnect(this: unknown, ...args: unknown[]) {
        const target = connectTarget(args);
        if ('host' in target && !isLocalName(target.host)) {
          const error = record({ kind: 'tcp', target: `${target.host}:${String(target.port)}` });
          const socket = this as net.Socket;
          process.nextTick(() => socket.destroy(error));
          return socket;
        }
        return original.apply(this, args);
      };
    },
    wrapDatagramSend(original) {
      return function guardedSend(this: unknown, ...args: unknown[]) {
        let address = datagramTarget(args, true);
        if (address === undefined) {
          try {
            address = (this as dgram.Socket).remoteAddress().address;
          } catch {
            address = 'localhost';
          }
        }
        if (!isLocalName(address)) {
          const error = record({ kind: 'udp', target: address });
          const callback = args.findLast((arg) => typeof arg === 'function') as
            ((e: Error) => void) | undefined;
          if (callback) process.nextTick(() => callback(error));
          return undefined;
        }
        return original.apply(this, args);
      };
    },
    wrapDatagramConnect(original) {
      return function guardedConnect(this: unknown, ...args: unknown[]) {
        const address = datagramTarget(args, false) ?? 'localhost';
        if (!isLocalName(address)) {
          const error = record({ kind: 'udp', target: address });
          const socket = this as dgram.Socket;
          process.nextTick(() => socket.emit('error', error));
          return undefined;
        }
        return original.apply(this, args);
      };
    },
    wrapLookup(original) {
      return guarded(original, (name) => !isLocalName(name) && net.isIP(name) === 0);
    },
    wrapResolver(original) {
      return guarded(original, () => true);
    },
  };

  function guarded(original: AnyFunction, refused: (name: string) => boolean): AnyFunction {
    return function guardedLookup(this: unknown, ...args: unknown[]) {
      const name = typeof args[0] === 'string' ? args[0] : '';
      if (refused(name)) {
        const error = record({ kind: 'lookup', target: name });
        const callback = args.findLast((arg) => typeof arg === 'function') as
          ((e: Error) => void) | undefined;
        if (callback) {
          process.nextTick(() => callback(error));
          return undefined;
        }
        return Promise.reject(error);
      }
      return original.apply(this, args);
    };
  }
}

const INSTALLED = Symbol.for('rfckit.connectGuard');

/**
 * Installs one guard for the whole process (idempotent) and returns it. Node's resolver
 * functions (`dns.resolve*`, `dns.lookup`) are wrapped too: asking the system's DNS for a
 * name would send packets to its servers.
 */
export function installConnectGuard(): ConnectGuard {
  const holder = globalThis as { [INSTALLED]?: ConnectGuard };
  const existing = holder[INSTALLED];
  if (existing !== undefined) return existing;
  const guard = createConnectGuard();
  const socketProto = net.Socket.prototype as unknown as Record<string, AnyFunction>;
  socketProto.connect = guard.wrapSocketConnect(socketProto.connect as AnyFunction);
  const datagramProto = dgram.Socket.prototype as unknown as Record<string, AnyFunction>;
  datagramProto.send = guard.wrapDatagramSend(datagramProto.send as AnyFunction);
  datagramProto.connect = guard.wrapDatagramConnect(datagramProto.connect as AnyFunction);
  for (const target of [dns, dns.promises] as unknown as Record<string, AnyFunction>[]) {
    for (const key of Object.keys(target)) {
      const original = target[key];
      if (typeof original !== 'function') continue;
      if (key === 'lookup') target[key] = guard.wrapLookup(original);
      else if (key === 'reverse' || key.startsWith('resolve')) target[key] = guard.wrapResolver(original);
    }
  }
  // `import { lookup } from 'node:dns'` sees the wrapped functions too
  syncBuiltinESMExports();
  holder[INSTALLED] = guard;
  return guard;
}
