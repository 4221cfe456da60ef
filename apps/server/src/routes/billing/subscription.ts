import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changeSubscriptionBody } from '@rfckit/standards';
import { z } from 'zod';
import { listActivePlans } from '../../db/plans.ts';
import { errorEnvelopeSchema, successEnvelope } from '../../plugins/errors.ts';
import { requireAdmin, requireMember } from '../organisation/access.ts';
import { actorOf } from './access.ts';
import {
  bearer,
  invoiceSchema,
  invoiceView,
  planSchema,
  planView,
  providerSchema,
  providerView,
  subscriptionSchema,
  subscriptionView,
} from './schemas.ts';

/** Plans and the organisation's subscription: any member reads, admins change the plan. */
const subscription: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/billing/plans',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Billing'],
        summary: 'The plans an organisation can choose',
        security: bearer,
        response: {
          200: successEnvelope(z.object({ plans: z.array(planSchema) })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      await requireMember(app, request, reply);
      const plans = await listActivePlans(app.db);
      return { success: true as const, data: { plans: plans.map(planView) } };
    },
  );

  app.get(
    '/billing/subscription',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Billing'],
        summary: "The organisation's subscription",
        description:
          'Any member may read it. An organisation without one gets the Free plan here, on first read. An ended ' +
          'period is settled first (renewal charge, scheduled change to Free).',
        security: bearer,
        response: {
          200: successEnvelope(z.object({ subscription: subscriptionSchema, provider: providerSchema })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireMember(app, request, reply);
      const state = await app.billing.subscription(caller.organisationId);
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: { subscription: subscriptionView(state), provider: providerView(app.billing.provider) },
      };
    },
  );

  app.put(
    '/billing/subscription',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Billing'],
        summary: 'Change the plan',
        description:
          'Admins only. A paid plan starts at once with a new period: its full price, less a pro-rata credit for ' +
          'the unused part of a paid period it replaces, is charged to the default card and a paid invoice ' +
          'issued (402 PAYMENT_DECLINED if the card is refused, 409 PAYMENT_METHOD_REQUIRED without a card). ' +
          'The Free plan takes over at the end of the paid period (`scheduledChange`); choosing the paid plan ' +
          'again before then cancels that at no charge.',
        security: bearer,
        body: changeSubscriptionBody,
        response: {
          200: successEnvelope(
            z.object({
              message: z.string(),
              subscription: subscriptionSchema,
              invoice: invoiceSchema.nullable().describe('The invoice the change issued, if it issued one'),
            }),
          ),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireAdmin(app, request, reply);
      const result = await app.billing.changePlan(
        caller.organisationId,
        request.body.planId,
        await actorOf(app, request, caller),
      );
      return {
        success: true as const,
        data: {
          message: result.message,
          subscription: subscriptionView(result.state),
          invoice: result.invoice === null ? null : invoiceView(result.invoice),
        },
      };
    },
  );
};

export default subscription;
