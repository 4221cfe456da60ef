import { Alert, Badge, Button, Group, Modal, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';

import { DataTable, type DataColumn } from '../../components/data-table.tsx';
import { OutcomeAlert } from '../../components/outcome-alert.tsx';
import { api } from '../../lib/api.ts';
import type { Outcome } from '../../lib/form-submission.ts';
import { cardExpiry, type PaymentMethod } from './billing-types.ts';
import { CardForm } from './card-form.tsx';
import { failureText } from './organisation-types.ts';

const CHANGE_FAILED = 'Failed to update payment method. Please try again.';
const REMOVE_FAILED = 'Failed to remove payment method. Please try again.';

function cardName(card: PaymentMethod): string {
  return `${card.brandName} ending ${card.last4}`;
}

/** The Payment Methods tab: the organisation's cards; admins add, choose the default and remove. */
export function PaymentMethodsTab({
  cards,
  isAdmin,
  onChanged,
}: {
  cards: PaymentMethod[];
  isAdmin: boolean;
  onChanged: () => Promise<void>;
}) {
  const [busyId, setBusyId] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [removing, setRemoving] = useState<PaymentMethod | null>(null);

  async function act(card: PaymentMethod, run: () => Promise<{ message: string }>, fallback: string) {
    setBusyId(card.id);
    setOutcome(null);
    try {
      const answer = await run();
      await onChanged();
      setOutcome({ kind: 'done', message: answer.message });
    } catch (error) {
      setOutcome({ kind: 'error', message: failureText(error, fallback) });
    } finally {
      setBusyId(null);
    }
  }

  function makeDefault(card: PaymentMethod) {
    return act(
      card,
      () => api.put<{ message: string }>(`/v1/billing/payment-methods/${card.id}`, { isDefault: true }),
      CHANGE_FAILED,
    );
  }

  function remove(card: PaymentMethod) {
    setRemoving(null);
    return act(
      card,
      () => api.request<{ message: string }>(`/v1/billing/payment-methods/${card.id}`, { method: 'DELETE' }),
      REMOVE_FAILED,
    );
  }

  const actionsColumn: DataColumn<PaymentMethod> = {
    header: <VisuallyHidden>Actions</VisuallyHidden>,
    // the card shows the buttons alone; their own labels name the card
    cardLabel: null,
    cell: (card) => (
      <Group gap="xs" justify="flex-end" wrap="nowrap">
        {!card.isDefault && (
          <Button
            size="xs"
            variant="default"
            loading={busyId === card.id}
            onClick={() => void makeDefault(card)}
            aria-label={`Set ${cardName(card)} as default`}
          >
            Set default
          </Button>
        )}
        <Button
          size="xs"
          variant="light"
          color="red"
          disabled={busyId === card.id}
          onClick={() => setRemoving(card)}
          aria-label={`Remove ${cardName(card)}`}
        >
          Remove
        </Button>
      </Group>
    ),
  };

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="billing-cards">
        <Stack gap="md">
          <Title order={2} size="h3" id="billing-cards">
            Payment methods
          </Title>
          {cards.length === 0 ? (
            <Text c="dimmed">No payment methods yet.</Text>
          ) : (
            <DataTable
              label="Card list"
              minWidth={620}
              verticalSpacing="sm"
              highlightOnHover
              rows={cards}
              rowKey={(card) => card.id}
              columns={[
                {
                  header: 'Card',
                  cell: (card) => (
                    <>
                      <Text fw={600} span>
                        {card.brandName}
                      </Text>{' '}
                      <Text span ff="monospace">
                        <VisuallyHidden>ending </VisuallyHidden>
                        <span aria-hidden="true">•••• </span>
                        {card.last4}
                      </Text>
                    </>
                  ),
                },
                { header: 'Expires', cell: cardExpiry },
                { header: 'Cardholder', cell: (card) => card.cardholderName },
                {
                  header: 'Status',
                  cell: (card) => card.isDefault && <Badge variant="light">Default</Badge>,
                },
                ...(isAdmin ? [actionsColumn] : []),
              ]}
            />
          )}
          <OutcomeAlert outcome={outcome} />
          {!isAdmin && <Alert color="gray">Only organisation admins can add or remove cards.</Alert>}
        </Stack>
      </Paper>
      {isAdmin && (
        <CardForm
          onAdded={() => {
            setOutcome(null);
            void onChanged();
          }}
        />
      )}
      <Modal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={removing === null ? '' : `Remove ${cardName(removing)}?`}
        centered
      >
        {removing !== null && (
          <Stack gap="md">
            <Text>
              The card is removed from your organisation.
              {removing.isDefault && cards.length > 1 && ' Another card becomes the default.'}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRemoving(null)}>
                Cancel
              </Button>
              <Button color="red" onClick={() => void remove(removing)}>
                Remove card
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
