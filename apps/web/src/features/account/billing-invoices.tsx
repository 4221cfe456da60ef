import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';

import { DataTable } from '../../components/data-table.tsx';
import { OutcomeAlert } from '../../components/outcome-alert.tsx';
import { api } from '../../lib/api.ts';
import type { Outcome } from '../../lib/form-submission.ts';
import { saveFile } from '../../lib/save-file.ts';
import {
  formatDate,
  type Invoice,
  invoiceStatusLabel,
  money,
  statusColour,
  type SubscriptionStatus,
} from './billing-types.ts';
import { failureText } from './organisation-types.ts';

const DOWNLOAD_FAILED = 'Failed to download the invoice. Please try again.';
const PRINT_FAILED = 'Failed to open the invoice for printing. Please try again.';

const documentPath = (invoice: Invoice, format: 'pdf' | 'html') =>
  `/v1/billing/invoices/${invoice.id}/document${format === 'html' ? '?format=html' : ''}`;

/**
 * Prints the server's HTML invoice from a hidden frame: the document needs the bearer token, so
 * it is fetched, then written into a same-origin frame and handed to the browser's print dialog.
 */
function printHtml(html: string): void {
  const frame = document.createElement('iframe');
  frame.title = 'Invoice for printing';
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.style.position = 'fixed';
  frame.style.width = '0';
  frame.style.height = '0';
  frame.style.border = '0';
  frame.addEventListener('load', () => {
    const view = frame.contentWindow;
    if (view === null) return;
    view.addEventListener('afterprint', () => frame.remove(), { once: true });
    view.focus();
    view.print();
  });
  frame.srcdoc = html;
  document.body.append(frame);
}

/** The Invoices tab: every invoice with its status, as a PDF to download or a page to print. */
export function InvoicesTab({
  invoices,
  subscriptionStatus,
}: {
  invoices: Invoice[];
  subscriptionStatus: SubscriptionStatus | undefined;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function fetchDocument(invoice: Invoice, format: 'pdf' | 'html') {
    setBusy(`${invoice.id}:${format}`);
    setOutcome(null);
    try {
      const file = await api.download(documentPath(invoice, format));
      if (format === 'pdf') saveFile(file.blob, file.fileName ?? `invoice-${invoice.number}.pdf`);
      else printHtml(await file.blob.text());
    } catch (error) {
      setOutcome({
        kind: 'error',
        message: failureText(error, format === 'pdf' ? DOWNLOAD_FAILED : PRINT_FAILED),
      });
    } finally {
      setBusy(null);
    }
  }

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="billing-invoices">
      <Stack gap="md">
        <Title order={2} size="h3" id="billing-invoices">
          Invoices
        </Title>
        {invoices.length === 0 ? (
          <Text c="dimmed">No invoices yet. An invoice is issued whenever a paid plan is charged.</Text>
        ) : (
          <DataTable
            label="Invoice list"
            minWidth={880}
            verticalSpacing="sm"
            highlightOnHover
            rows={invoices}
            rowKey={(invoice) => invoice.id}
            columns={[
              {
                header: 'Invoice',
                cellProps: { ff: 'monospace', style: { whiteSpace: 'nowrap' } },
                cell: (invoice) => invoice.number,
              },
              { header: 'Date', cell: (invoice) => formatDate(invoice.date) },
              {
                header: 'Amount',
                cellProps: { style: { whiteSpace: 'nowrap' } },
                cell: (invoice) => money(invoice.amount, invoice.currency),
              },
              {
                header: 'Status',
                cell: (invoice) => {
                  const status = invoiceStatusLabel(invoice.status, subscriptionStatus);
                  return (
                    // the column would otherwise squeeze the badge to an ellipsis
                    <div style={{ minWidth: 110 }}>
                      <Badge variant="light" color={statusColour(status)}>
                        {status}
                      </Badge>
                    </div>
                  );
                },
              },
              {
                header: 'Description',
                cell: (invoice) => (
                  <>
                    <Text size="sm">{invoice.description}</Text>
                    {invoice.paymentSummary !== null && (
                      <Text size="xs" c="dimmed">
                        {invoice.paymentSummary}
                      </Text>
                    )}
                  </>
                ),
              },
              {
                header: 'Document',
                cell: (invoice) => (
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      loading={busy === `${invoice.id}:pdf`}
                      onClick={() => void fetchDocument(invoice, 'pdf')}
                      aria-label={`Download PDF of invoice ${invoice.number}`}
                    >
                      Download PDF
                    </Button>
                    <Button
                      size="xs"
                      variant="subtle"
                      loading={busy === `${invoice.id}:html`}
                      onClick={() => void fetchDocument(invoice, 'html')}
                      aria-label={`Print invoice ${invoice.number}`}
                    >
                      Print
                    </Button>
                  </Group>
                ),
              },
            ]}
          />
        )}
        <OutcomeAlert outcome={outcome} />
      </Stack>
    </Paper>
  );
}
