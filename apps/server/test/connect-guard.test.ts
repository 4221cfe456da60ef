import dgram from 'node:dgram';
import { promises as dnsPromises, lookup } from 'node:dns';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectTarget,
  createConnectGuard,
  installConnectGuard,
  isLoopbackAddress,
} from './helpers/connect-guard.ts';

// The guard is proven on a stand-in for the real connect, so that a broken guard could never
// let these tests send a packet anywhere: the stand-in only counts what would have gone out.
function standIn() {
  const calls: unknown[][] = [];
  const fn = function (this: unknown, ...args: unknown[]) {
    calls.push(args);
    return this;
  };
  return { fn, calls };
}

describe('connect guard', () => {
  afterEach(() => {
    // this file provokes violations on purpose through its own guards only
    installConnectGuard().violations.splice(0);
  });

  it('knows loopback addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.200.1.1',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ])
      expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of [
      '10.0.0.1',
      '192.168.1.1',
      '::',
      '::2',
      'fe80::1',
      '::ffff:10.0.0.1',
      'localhost',
      '128.0.0.1',
    ])
      expect(isLoopbackAddress(address), address).toBe(false);
  });

  it('reads targets in every form Socket#connect takes', () => {
    expect(connectTarget([{ host: '10.0.0.1', port: 80 }])).toEqual({ host: '10.0.0.1', port: 80 });
    expect(connectTarget([[{ host: 'example.org', port: 443 }, () => {}]])).toEqual({
      host: 'example.org',
      port: 443,
    });
    expect(connectTarget([8080, '192.0.2.1'])).toEqual({ host: '192.0.2.1', port: 8080 });
    expect(connectTarget([8080])).toEqual({ host: 'localhost', port: 8080 });
    expect(connectTarget([{ path: '/tmp/socket' }])).toEqual({ path: '/tmp/socket' });
  });

  it('refuses TCP to anything but loopback before the real connect runs, and records it', async () => {
    const guard = createConnectGuard();
    const original = standIn();
    const connect = guard.wrapSocketConnect(original.fn);
    const socket = new net.Socket();
    const failed = new Promise<Error>((resolve) => socket.once('error', resolve));
    connect.call(socket, { host: '169.254.169.254', port: 80 });
    expect((await failed).message).toContain('169.254.169.254:80');
    const named = new net.Socket();
    const namedFailed = new Promise<Error>((resolve) => named.once('error', resolve));
    connect.call(named, { host: 'example.org', port: 443 });
    expect((await namedFailed).message).toContain('example.org:443');
    expect(original.calls).toEqual([]);
    expect(guard.violations).toEqual([
      { kind: 'tcp', target: '169.254.169.254:80' },
      { kind: 'tcp', target: 'example.org:443' },
    ]);

    connect.call(new net.Socket(), { host: '127.0.0.1', port: 1 });
    connect.call(new net.Socket(), { host: 'localhost', port: 1 });
    connect.call(new net.Socket(), { path: '/tmp/x.sock' });
    expect(original.calls).toHaveLength(3);
    expect(guard.violations).toHaveLength(2);
  });

  it('refuses UDP and system DNS lookups of outside names', () => {
    const guard = createConnectGuard();
    const send = standIn();
    const guardedSend = guard.wrapDatagramSend(send.fn);
    const socket = dgram.createSocket('udp4');
    guardedSend.call(socket, Buffer.from('x'), 53, '8.8.8.8', () => {});
    guardedSend.call(socket, Buffer.from('x'), 0, 1, 53, '127.0.0.1', () => {});
    socket.close();
    expect(send.calls).toHaveLength(1);

    const resolve = standIn();
    const guardedLookup = guard.wrapLookup(resolve.fn);
    void (guardedLookup('example.org', () => {}) as unknown);
    guardedLookup('localhost', () => {});
    guardedLookup('127.0.0.1', () => {});
    const guardedResolver = guard.wrapResolver(resolve.fn);
    void (guardedResolver('localhost') as Promise<unknown>).catch(() => {});
    expect(resolve.calls).toHaveLength(2);
    expect(guard.violations).toEqual([
      { kind: 'udp', target: '8.8.8.8' },
      { kind: 'lookup', target: 'example.org' },
      { kind: 'lookup', target: 'localhost' },
    ]);
  });

  it('is installed under this test file: real sockets to loopback work, outside lookups are refused', async () => {
    const guard = installConnectGuard();
    const server = net.createServer((socket) => socket.end('hi'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () =>
        socket.once('data', (data) => resolve(String(data))),
      );
      socket.on('error', reject);
    });
    server.close();
    expect(reply).toBe('hi');
    // a name lookup is answered by the guard with a refusal: the system resolver is never asked
    await expect(dnsPromises.resolve4('example.org')).rejects.toThrow(/connect guard/);
    await expect(
      new Promise((resolve, reject) => lookup('example.org', (e, a) => (e ? reject(e) : resolve(a)))),
    ).rejects.toThrow(/connect guard/);
    expect(guard.violations.map((violation) => violation.target)).toEqual(['example.org', 'example.org']);
  });
});
