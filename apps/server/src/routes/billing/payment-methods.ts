import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addPaymentMethodBody, updatePaymentMethodBody } from '@rfckit/standards';
import { z } from 'zod';
import { MAX_PAYMENT_METHODS } from '../../billing/service.ts';
import { listPaymentMethods } from '../../db/payment-methods.ts';
import { errorEnvelopeSchema, successEnvelope } from '../../plugins/errors.ts';
import { requireAdmin, requireMember } from '../organisation/access.ts';
import { actorOf } from './access.ts';
import { bearer, idParams, paymentMethodSchema, paymentMethodView } from './schemas.ts';

const messageSchema = z.object({ message: z.string() });

/**
 * The organisation's cards. Only the brand, last four digits, expiry, cardholder name and the
 * provider's reference are stored; the number and CVV go to the provider and nowhere else (not to
 * the database, not to a log line, not back in a response).
 */
const paymentMethods: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/billing/payment-methods',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Billing'],
        summary: "The organisation's cards, the default first",
        security: bearer,
        response: {
          200: successEnvelope(z.object({ paymentMethods: z.array(paymentMethodSchema) })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireMember(app, request, reply);
      const cards = await listPaymentMethods(app.db, caller.organisationId);
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: { paymentMethods: cards.map(paymentMethodView) } };
    },
  );

  app.post(
    '/billing/payment-methods',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Billing'],
        summary: 'Add a card',
        description:
          'Admins only. All four fields are required; the number must pass the Luhn check and belong to a ' +
          'supported network, the expiry (MM/YY) must not have passed, the CVV has 3 digits (4 for American ' +
          'Express). The first card, or a card added while an invoice is overdue, becomes the default (and pays ' +
          `that invoice). At most ${MAX_PAYMENT_METHODS} cards.`,
        security: bearer,
        body: addPaymentMethodBody,
        response: {
          201: successEnvelope(messageSchema.extend({ paymentMethod: paymentMethodSchema })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireAdmin(app, request, reply);
      const card = await app.billing.addPaymentMethod(
        caller.organisationId,
        request.body,
        await actorOf(app, request, caller),
      );
      reply.code(201);
      return {
        success: true as const,
        data: { message: 'Payment method added successfully!', paymentMethod: paymentMethodView(card) },
      };
    },
  );

  app.put(
    '/billing/payment-methods/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Billing'],
        summary: 'Make a card the default, or record its new expiry date',
        description: 'Admins only. An overdue invoice is retried with the default card afterwards.',
        security: bearer,
        params: idParams,
        body: updatePaymentMethodBody,
        response: {
          200: successEnvelope(messageSchema.extend({ paymentMethod: paymentMethodSchema })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireAdmin(app, request, reply);
      const result = await app.billing.updatePaymentMethod(
        caller.organisationId,
        request.params.id,
        request.body,
        await actorOf(app, request, caller),
      );
      return {
        success: true as const,
        data: { message: result.message, paymentMethod: paymentMethodView(result.paymentMethod) },
      };
    },
  );

  app.delete(
    '/billing/payment-methods/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Billing'],
        summary: 'Remove a card',
        description:
          'Admins only. If it was the default, the newest other card becomes the default. The only card cannot be ' +
          'removed while a paid plan is active (409 LAST_PAYMENT_METHOD).',
        security: bearer,
        params: idParams,
        response: { 200: successEnvelope(messageSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const caller = await requireAdmin(app, request, reply);
      const message = await app.billing.removePaymentMethod(
        caller.organisationId,
        request.params.id,
        await actorOf(app, request, caller),
      );
      return { success: true as const, data: { message } };
    },
  );
};

export default paymentMethods;
