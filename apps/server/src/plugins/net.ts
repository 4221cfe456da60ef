import fp from 'fastify-plugin';
import { createNetLayer, type NetLayer } from '../net/layer.ts';
import { version } from '../version.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The guarded outbound layer: `app.net.session()` per tool call (docs/architecture.md §6). */
    net: NetLayer;
  }
}

/** The User-Agent of every outbound request: who we are and where to read about it. */
export function outboundUserAgent(publicUrl: string | undefined): string {
  return publicUrl === undefined ? `rfckit/${version}` : `rfckit/${version} (+${publicUrl})`;
}

/**
 * Builds the outbound layer from DNS_SERVERS, OUTBOUND_ALLOW, OUTBOUND_CONNECT_TO, OUTBOUND_CA_FILE
 * and OUTBOUND_TIMEOUT_MS.
 */
export default fp(
  async (app) => {
    app.decorate(
      'net',
      createNetLayer({
        ...(app.config.dnsServers === undefined ? {} : { dnsServers: app.config.dnsServers }),
        allow: app.config.outboundAllow,
        connectTo: app.config.outboundConnectTo,
        ...(app.config.outboundCaFile === undefined ? {} : { caFile: app.config.outboundCaFile }),
        userAgent: outboundUserAgent(app.config.publicUrl),
        limits: { totalTimeoutMs: app.config.outboundTimeoutMs },
      }),
    );
  },
  { name: 'net' },
);
