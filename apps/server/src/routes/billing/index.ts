import type { FastifyPluginAsync } from 'fastify';
import invoices from './invoices.ts';
import paymentMethods from './payment-methods.ts';
import subscription from './subscription.ts';

/**
 * `/billing/*` (spec part 1 §2 Billing & Subscription). Every member of the organisation may read
 * it, as the spec's screens show billing to any signed-in user and nothing in it is secret beyond
 * what a printed invoice shows; only admins change the plan or the cards.
 */
const billing: FastifyPluginAsync = async (app) => {
  await app.register(subscription);
  await app.register(paymentMethods);
  await app.register(invoices);
};

export default billing;
