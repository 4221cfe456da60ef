import { Alert, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';

import { api } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { InvoicesTab } from './billing-invoices.tsx';
import { OverviewTab, ProviderNotice } from './billing-overview.tsx';
import { PaymentMethodsTab } from './billing-payment-methods.tsx';
import {
  billingKey,
  type Invoice,
  type PaymentMethod,
  type Plan,
  type SubscriptionAnswer,
} from './billing-types.ts';

const LOAD_FAILED = 'Failed to load billing. Please try again.';

const TABS = ['overview', 'payment-methods', 'invoices'] as const;
type Tab = (typeof TABS)[number];

function Loading() {
  return (
    <Group gap="xs" role="status">
      <Loader size="sm" aria-hidden="true" />
      <Text>Loading...</Text>
    </Group>
  );
}

/**
 * Spec part 1 §2 Billing & Subscription: tabs Overview, Payment Methods, Invoices, with the
 * organisation's real plan, cards and invoices (docs/architecture.md §10). Every member sees it; admins change it.
 */
export default function BillingPage() {
  useDocumentTitle('Billing & Subscription · rfckit');
  const session = useSession();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const user = session.status === 'authenticated' ? session.user : null;
  const userId = user?.id ?? null;
  const isAdmin = user?.role === 'admin';
  const requested = searchParams.get('tab');
  const tab: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : 'overview';
  const key = billingKey(userId);

  const subscription = useQuery({
    queryKey: [...key, 'subscription'],
    queryFn: ({ signal }) => api.get<SubscriptionAnswer>('/v1/billing/subscription', signal),
    enabled: userId !== null,
  });
  const plans = useQuery({
    queryKey: [...key, 'plans'],
    queryFn: ({ signal }) =>
      api.get<{ plans: Plan[] }>('/v1/billing/plans', signal).then((data) => data.plans),
    enabled: userId !== null,
  });
  const cards = useQuery({
    queryKey: [...key, 'payment-methods'],
    queryFn: ({ signal }) =>
      api
        .get<{ paymentMethods: PaymentMethod[] }>('/v1/billing/payment-methods', signal)
        .then((data) => data.paymentMethods),
    enabled: userId !== null,
  });
  const invoices = useQuery({
    queryKey: [...key, 'invoices'],
    queryFn: ({ signal }) =>
      api.get<{ invoices: Invoice[] }>('/v1/billing/invoices', signal).then((data) => data.invoices),
    enabled: userId !== null,
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const showTab = (next: string | null) => {
    const value = TABS.includes(next as Tab) ? (next as Tab) : 'overview';
    setSearchParams(value === 'overview' ? {} : { tab: value }, { replace: true });
  };

  const failure = [subscription, plans, cards, invoices].find((query) => query.isError)?.error;

  return (
    <Stack gap="lg" py="lg" maw={1000}>
      <Title order={1}>Billing &amp; Subscription</Title>
      {failure !== undefined && failure !== null && (
        <Alert color="red" title="Error loading billing">
          {failure.message || LOAD_FAILED}
        </Alert>
      )}
      {subscription.data && <ProviderNotice provider={subscription.data.provider} />}
      <Tabs value={tab} onChange={showTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="overview">Overview</Tabs.Tab>
          <Tabs.Tab value="payment-methods">Payment Methods</Tabs.Tab>
          <Tabs.Tab value="invoices">Invoices</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview" pt="lg">
          {subscription.data && plans.data ? (
            <OverviewTab
              subscription={subscription.data.subscription}
              provider={subscription.data.provider}
              plans={plans.data}
              defaultCard={cards.data?.find((card) => card.isDefault)}
              isAdmin={isAdmin}
              onChanged={refresh}
              onShowPaymentMethods={() => showTab('payment-methods')}
            />
          ) : (
            (subscription.isPending || plans.isPending) && <Loading />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="payment-methods" pt="lg">
          {cards.data ? (
            <PaymentMethodsTab cards={cards.data} isAdmin={isAdmin} onChanged={refresh} />
          ) : (
            cards.isPending && <Loading />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="invoices" pt="lg">
          {invoices.data ? (
            <InvoicesTab
              invoices={invoices.data}
              subscriptionStatus={subscription.data?.subscription.status}
            />
          ) : (
            invoices.isPending && <Loading />
          )}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
