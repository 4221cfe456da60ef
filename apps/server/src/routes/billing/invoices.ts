import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type InvoiceDocument, renderInvoiceHtml, renderInvoicePdf } from '../../billing/invoice-document.ts';
import { BILLING_MESSAGES } from '../../billing/service.ts';
import { findInvoice, listInvoices } from '../../db/invoices.ts';
import type { Invoice } from '../../db/invoices.ts';
import { findOrganisationById } from '../../db/organisations.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';
import { requireMember } from '../organisation/access.ts';
import { bearer, idParams, invoiceSchema, invoiceView } from './schemas.ts';

/** The newest invoices listed; a monthly plan issues twelve a year. */
export const INVOICE_LIST_MAX = 240;

/** Invoices: any member may list and download them (they hold amounts and a card's last four digits only). */
const invoices: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/billing/invoices',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Billing'],
        summary: "The organisation's invoices, newest first",
        description: `The newest ${INVOICE_LIST_MAX}.`,
        security: bearer,
        response: {
          200: successEnvelope(z.object({ invoices: z.array(invoiceSchema) })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireMember(app, request, reply);
      // a renewal that fell due issues its invoice before the list is read
      await app.billing.subscription(caller.organisationId);
      const rows = await listInvoices(app.db, caller.organisationId, INVOICE_LIST_MAX);
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: { invoices: rows.map(invoiceView) } };
    },
  );

  app.get(
    '/billing/invoices/:id/document',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Billing'],
        summary: 'The invoice as a PDF, or as a printable HTML page',
        description:
          'format=pdf (default) answers application/pdf as an attachment; format=html a standalone page to print. ' +
          'Both show seller, buyer, number, dates, the line, totals, how it was paid, and the notice that the ' +
          'local payment provider took no payment.',
        security: bearer,
        params: idParams,
        querystring: z.object({
          format: z.enum(['pdf', 'html'], { error: 'format must be pdf or html' }).default('pdf'),
        }),
        produces: ['application/pdf', 'text/html'],
        response: {
          200: {
            description: 'The document',
            content: {
              'application/pdf': { schema: z.string().describe('PDF bytes') },
              'text/html': { schema: z.string() },
            },
          },
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireMember(app, request, reply);
      const invoice = await findInvoice(app.db, caller.organisationId, request.params.id);
      if (invoice === undefined) throw new HttpError(404, 'NOT_FOUND', BILLING_MESSAGES.invoiceNotFound);
      const document = await documentOf(invoice);
      const name = `invoice-${invoice.number}`;
      const raw = reply as FastifyReply;
      raw.header('cache-control', 'no-store');
      if (request.query.format === 'html') {
        return raw
          .type('text/html; charset=utf-8')
          .header('content-disposition', `inline; filename="${name}.html"`)
          .send(renderInvoiceHtml(document));
      }
      return raw
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${name}.pdf"`)
        .send(await renderInvoicePdf(document));
    },
  );

  async function documentOf(invoice: Invoice): Promise<InvoiceDocument> {
    const organisation = await findOrganisationById(app.db, invoice.organisation_id);
    const buyer = [
      organisation?.name ?? 'Unknown organisation',
      ...(organisation?.address ?? '').split(/\r?\n/).map((line) => line.trim()),
      organisation?.domain ?? '',
      organisation?.admin_email ?? '',
    ].filter((line) => line !== '');
    const provider = app.billing.provider;
    return {
      number: invoice.number,
      status: invoice.status,
      issuedAt: invoice.issued_at,
      paidAt: invoice.paid_at,
      periodStart: invoice.period_start,
      periodEnd: invoice.period_end,
      description: invoice.description,
      amountMinor: invoice.amount_minor,
      currency: invoice.currency,
      paymentSummary: invoice.payment_summary,
      seller: app.config.invoiceSeller,
      buyer,
      notice: provider.takesPayments ? null : provider.notice,
    };
  }
};

export default invoices;
