import {
  Alert,
  Badge,
  Button,
  Group,
  List,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';

import { OutcomeAlert } from '../../components/outcome-alert.tsx';
import { api } from '../../lib/api.ts';
import type { Outcome } from '../../lib/form-submission.ts';
import {
  formatDate,
  money,
  type PaymentMethod,
  type PaymentProviderInfo,
  type Plan,
  statusColour,
  type Subscription,
  subscriptionStatusLabel,
} from './billing-types.ts';
import { failureText } from './organisation-types.ts';

const CHANGE_FAILED = 'Failed to change the plan. Please try again.';

const per = (interval: Plan['interval']) => (interval === 'year' ? 'year' : 'month');

/** The one thing the screen says about money: this installation takes none. */
export function ProviderNotice({ provider }: { provider: PaymentProviderInfo }) {
  if (provider.takesPayments || provider.notice === null) return null;
  return (
    <Alert color="orange" variant="light" title="No real payment is taken">
      {provider.notice}
    </Alert>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text fw={600} component="dd" m={0}>
        {children}
      </Text>
    </div>
  );
}

function CurrentPlan({ subscription }: { subscription: Subscription }) {
  const status = subscriptionStatusLabel(subscription.status);
  let nextBilling: string;
  if (subscription.nextBillingDate !== null) nextBilling = formatDate(subscription.nextBillingDate);
  else if (subscription.scheduledChange !== null)
    nextBilling = `None: moves to ${subscription.scheduledChange.plan} on ${formatDate(subscription.scheduledChange.effectiveAt)}`;
  else nextBilling = 'None: nothing to pay on this plan';
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="billing-current-plan">
      <Stack gap="md">
        <Group justify="space-between" align="center">
          <Title order={2} size="h3" id="billing-current-plan">
            Current plan: {subscription.plan}
          </Title>
          <Badge size="lg" variant="light" color={statusColour(status)}>
            {status}
          </Badge>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" component="dl" m={0}>
          <Fact label="Amount">
            {money(subscription.amount, subscription.currency)} per {per(subscription.interval)}
          </Fact>
          <Fact label="Next billing date">{nextBilling}</Fact>
          <Fact label="Current period">
            {formatDate(subscription.currentPeriodStart)} – {formatDate(subscription.currentPeriodEnd)}
          </Fact>
        </SimpleGrid>
        {subscription.status === 'past_due' && (
          <Alert color="red">
            The last renewal could not be charged. Add a card or choose another default card under Payment
            Methods to pay the open invoice.
          </Alert>
        )}
        {subscription.status === 'incomplete' && (
          <Alert color="yellow">
            A plan change is being processed. This page shows the result in a moment.
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

type Change = { plan: Plan; kind: 'upgrade' | 'downgrade' | 'resume' };

function changeOf(plan: Plan, subscription: Subscription, current: Plan | undefined): Change['kind'] | null {
  if (plan.id === subscription.planId) return subscription.scheduledChange === null ? null : 'resume';
  return plan.amountMinor > (current?.amountMinor ?? 0) ? 'upgrade' : 'downgrade';
}

const buttonText: Record<Change['kind'], (plan: Plan) => string> = {
  upgrade: (plan) => `Upgrade to ${plan.name}`,
  downgrade: (plan) => `Change to ${plan.name}`,
  resume: (plan) => `Keep ${plan.name}`,
};

/** The Overview tab: current plan and status, the provider notice, and the plans to choose from. */
export function OverviewTab({
  subscription,
  provider,
  plans,
  defaultCard,
  isAdmin,
  onChanged,
  onShowPaymentMethods,
}: {
  subscription: Subscription;
  provider: PaymentProviderInfo;
  plans: Plan[];
  defaultCard: PaymentMethod | undefined;
  isAdmin: boolean;
  onChanged: () => Promise<void>;
  onShowPaymentMethods: () => void;
}) {
  const [pending, setPending] = useState<Change | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const current = plans.find((plan) => plan.id === subscription.planId);

  async function confirm(change: Change) {
    setPending(null);
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await api.put<{ message: string }>('/v1/billing/subscription', {
        planId: change.plan.id,
      });
      await onChanged();
      setOutcome({
        kind: answer.message.includes('successfully') ? 'done' : 'error',
        message: answer.message,
      });
    } catch (error) {
      setOutcome({ kind: 'error', message: failureText(error, CHANGE_FAILED) });
      await onChanged();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="lg">
      <CurrentPlan subscription={subscription} />
      <OutcomeAlert outcome={outcome} />
      <section aria-labelledby="billing-plans">
        <Title order={2} size="h3" id="billing-plans" mb="md">
          Plans
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {plans.map((plan) => {
            const kind = changeOf(plan, subscription, current);
            const isCurrent = plan.id === subscription.planId;
            return (
              <Paper
                key={plan.id}
                withBorder
                p="lg"
                radius="md"
                component="article"
                aria-labelledby={`plan-${plan.id}`}
                style={
                  isCurrent
                    ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 }
                    : undefined
                }
              >
                <Stack gap="sm" h="100%">
                  <Group justify="space-between">
                    <Title order={3} size="h4" id={`plan-${plan.id}`}>
                      {plan.name}
                    </Title>
                    {isCurrent && <Badge variant="filled">Current plan</Badge>}
                  </Group>
                  <Text size="xl" fw={700}>
                    {money(plan.amount, plan.currency)}{' '}
                    <Text span size="sm" c="dimmed" fw={400}>
                      per {per(plan.interval)}
                    </Text>
                  </Text>
                  <Text size="sm">{plan.description}</Text>
                  <List size="sm" spacing={4}>
                    {plan.features.map((feature) => (
                      <List.Item key={feature}>{feature}</List.Item>
                    ))}
                  </List>
                  {isAdmin && kind !== null && (
                    <Button
                      mt="auto"
                      variant={kind === 'upgrade' ? 'filled' : 'default'}
                      loading={busy && pending === null}
                      disabled={busy || subscription.status === 'incomplete'}
                      onClick={() => setPending({ plan, kind })}
                    >
                      {buttonText[kind](plan)}
                    </Button>
                  )}
                </Stack>
              </Paper>
            );
          })}
        </SimpleGrid>
        {!isAdmin && (
          <Text size="sm" c="dimmed" mt="sm">
            Only organisation admins can change the plan.
          </Text>
        )}
      </section>
      <Modal
        opened={pending !== null}
        onClose={() => setPending(null)}
        title={pending === null ? '' : `${buttonText[pending.kind](pending.plan)}?`}
        centered
      >
        {pending !== null && (
          <ChangeConfirmation
            change={pending}
            subscription={subscription}
            provider={provider}
            defaultCard={defaultCard}
            onCancel={() => setPending(null)}
            onConfirm={() => void confirm(pending)}
            onShowPaymentMethods={() => {
              setPending(null);
              onShowPaymentMethods();
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}

function ChangeConfirmation({
  change,
  subscription,
  provider,
  defaultCard,
  onCancel,
  onConfirm,
  onShowPaymentMethods,
}: {
  change: Change;
  subscription: Subscription;
  provider: PaymentProviderInfo;
  defaultCard: PaymentMethod | undefined;
  onCancel: () => void;
  onConfirm: () => void;
  onShowPaymentMethods: () => void;
}) {
  const { plan, kind } = change;
  if (kind === 'upgrade' && defaultCard === undefined) {
    return (
      <Stack gap="md">
        <Text>Add a payment method before changing to the {plan.name} plan.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={onShowPaymentMethods}>Add a card</Button>
        </Group>
      </Stack>
    );
  }
  let body: string;
  if (kind === 'upgrade') {
    const card = defaultCard === undefined ? '' : ` to ${defaultCard.brandName} ending ${defaultCard.last4}`;
    const credit =
      subscription.amountMinor > 0 ? ', less a credit for the unused part of your current period,' : '';
    body =
      `${plan.name} starts today. ${money(plan.amount, plan.currency)}${credit} is charged${card} now and an invoice ` +
      `issued; after that ${money(plan.amount, plan.currency)} every ${per(plan.interval)}.`;
  } else if (kind === 'resume') {
    body = `The scheduled change is called off: ${plan.name} continues and renews on ${formatDate(subscription.currentPeriodEnd)}. Nothing is charged now.`;
  } else {
    body =
      subscription.amountMinor > 0 && subscription.status !== 'past_due'
        ? `${subscription.plan} stays until the end of the paid period, ${formatDate(subscription.currentPeriodEnd)}; then your organisation moves to ${plan.name}. Nothing more is charged.`
        : `Your organisation moves to ${plan.name} now.`;
  }
  return (
    <Stack gap="md">
      <Text>{body}</Text>
      {kind === 'upgrade' && !provider.takesPayments && (
        <Text size="sm" c="dimmed">
          The local payment provider takes no real payment: the invoice is marked as settled by it.
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button onClick={onConfirm}>{buttonText[kind](plan)}</Button>
      </Group>
    </Stack>
  );
}
