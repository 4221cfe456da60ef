import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tells every process (through Redis when configured) that sessions or API keys ended. */
    revocations: RevocationBus;
  }
}

/** Sign-ins by family id, every sign-in of users by user id, organisation API keys by key id. */
export type RevokedKind = 'session-family' | 'user' | 'api-key';
const KINDS: ReadonlySet<string> = new Set<RevokedKind>(['session-family', 'user', 'api-key']);
type Listener = (ids: readonly string[]) => void;

const CHANNEL = 'rfckit:revocations';

function parse(message: string): { kind: RevokedKind; ids: string[] } | undefined {
  try {
    const value = JSON.parse(message) as { kind?: unknown; ids?: unknown };
    if (typeof value.kind !== 'string' || !KINDS.has(value.kind)) return undefined;
    if (!Array.isArray(value.ids) || !value.ids.every((id) => typeof id === 'string')) return undefined;
    return { kind: value.kind as RevokedKind, ids: value.ids as string[] };
  } catch {
    return undefined;
  }
}

/**
 * Revocations for the per-process caches of sessions and API keys. `publish` drops the ids here at
 * once and, with Redis, in every other process as soon as the message arrives; without Redis (or
 * while it is down) the other processes' caches run out within their 5 s.
 */
export class RevocationBus {
  private readonly listeners = new Map<RevokedKind, Set<Listener>>();
  private readonly publisher: Redis | null;
  private readonly onError: (error: unknown) => void;

  constructor(publisher: Redis | null, onError: (error: unknown) => void = () => {}) {
    this.publisher = publisher;
    this.onError = onError;
  }

  subscribe(kind: RevokedKind, listener: Listener): void {
    let set = this.listeners.get(kind);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(kind, set);
    }
    set.add(listener);
  }

  publish(kind: RevokedKind, ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.deliver(kind, ids);
    // the revocation is already in the database: a lost message only leaves others to their cache time
    this.publisher?.publish(CHANNEL, JSON.stringify({ kind, ids })).catch(this.onError);
  }

  /** A message from the channel (this process's own come back too: dropping twice is harmless). */
  receive(message: string): void {
    const parsed = parse(message);
    if (parsed !== undefined) this.deliver(parsed.kind, parsed.ids);
  }

  private deliver(kind: RevokedKind, ids: readonly string[]): void {
    for (const listener of this.listeners.get(kind) ?? []) listener(ids);
  }
}

export default fp(
  async (app) => {
    const bus = new RevocationBus(app.redis, (error) =>
      app.log.warn({ err: error }, 'could not publish a revocation to Redis'),
    );
    app.decorate('revocations', bus);
    if (app.redis === null) return;
    // a connection in subscriber mode can do nothing else
    const subscriber = app.redis.duplicate();
    subscriber.on('error', () => {
      // reported by the main connection; ioredis reconnects and subscribes again on its own
    });
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === CHANNEL) bus.receive(message);
    });
    await subscriber.connect();
    await subscriber.subscribe(CHANNEL);
    app.addHook('onClose', async () => {
      await subscriber.quit().catch(() => subscriber.disconnect());
    });
  },
  { name: 'revocations', dependencies: ['redis'] },
);
