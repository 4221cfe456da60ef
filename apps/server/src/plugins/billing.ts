import fp from 'fastify-plugin';
import { LocalPaymentProvider } from '../billing/local-provider.ts';
import { Billing } from '../billing/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Plans, subscriptions, cards and invoices of every organisation (billing/service.ts). */
    billing: Billing;
  }
}

/** How often ended periods are settled (renewals, scheduled changes) besides whenever billing is read. */
export const BILLING_SWEEP_MS = 15 * 60 * 1000;

/**
 * Billing with its payment provider. The only provider is the local one, which takes no money and
 * says so; a real one implements billing/payment-provider.ts and is chosen here.
 */
export default fp(
  async (app) => {
    const billing = new Billing(app.db, new LocalPaymentProvider());
    app.decorate('billing', billing);

    let sweeping = false;
    const timer = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      billing
        .settleDue()
        .catch((error: unknown) => app.log.error({ err: error }, 'billing sweep failed'))
        .finally(() => {
          sweeping = false;
        });
    }, BILLING_SWEEP_MS);
    // never keeps the process alive on its own
    timer.unref();
    app.addHook('onClose', () => clearInterval(timer));
  },
  { name: 'billing', dependencies: ['db'] },
);
