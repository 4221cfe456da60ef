import { Button, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  addPaymentMethodBody,
  CARD_BRAND_NAMES,
  cardDigits,
  checkCardFields,
  detectCardBrand,
  type CardField,
  type CardFormValues,
} from '@rfckit/standards';
import { useState } from 'react';

import { OutcomeAlert } from '../../components/outcome-alert.tsx';
import { api } from '../../lib/api.ts';
import { useFormSubmission } from '../../lib/form-submission.ts';
import { failureText } from './organisation-types.ts';
import type { PaymentMethod } from './billing-types.ts';

const ADD_FAILED = 'Failed to add payment method. Please try again.';

const EMPTY: CardFormValues = { cardholderName: '', cardNumber: '', expiryDate: '', cvv: '' };

const fields: ReadonlyArray<{
  name: CardField;
  label: string;
  autoComplete: string;
  inputMode?: 'numeric';
  placeholder?: string;
  maxLength: number;
}> = [
  { name: 'cardholderName', label: 'Cardholder name', autoComplete: 'cc-name', maxLength: 100 },
  {
    name: 'cardNumber',
    label: 'Card number',
    autoComplete: 'cc-number',
    inputMode: 'numeric',
    placeholder: '1234 5678 9012 3456',
    maxLength: 40,
  },
  {
    name: 'expiryDate',
    label: 'Expiry date (MM/YY)',
    autoComplete: 'cc-exp',
    inputMode: 'numeric',
    placeholder: 'MM/YY',
    maxLength: 10,
  },
  {
    name: 'cvv',
    label: 'CVV',
    autoComplete: 'cc-csc',
    inputMode: 'numeric',
    maxLength: 4,
  },
];

/**
 * The new-card form (spec part 1 §3, §5): all four fields required, checked as you type with the
 * server's own rules and words (Luhn, expiry, CVV length by brand). A field shows its message once
 * it has been left or the form submitted. The number and CVV are sent once, to be handed to the
 * payment provider, and cleared from the form when the card is added.
 */
export function CardForm({ onAdded }: { onAdded: () => void }) {
  const [values, setValues] = useState<CardFormValues>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<CardField, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const problems = checkCardFields(values);
  const brand = detectCardBrand(cardDigits(values.cardNumber));

  const { busy, outcome, onSubmit } = useFormSubmission({
    body: values,
    schema: addPaymentMethodBody,
    submit: async (body) => {
      const answer = await api.post<{ message: string; paymentMethod: PaymentMethod }>(
        '/v1/billing/payment-methods',
        body,
      );
      setValues(EMPTY);
      setTouched({});
      setSubmitted(false);
      onAdded();
      return answer.message;
    },
    fallbackError: ADD_FAILED,
    describeError: failureText,
  });

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="billing-add-card">
      <form
        onSubmit={(event) => {
          setSubmitted(true);
          onSubmit(event);
        }}
        noValidate
        aria-describedby="billing-card-privacy"
      >
        <Stack gap="md">
          <Title order={3} size="h4" id="billing-add-card">
            Add a card
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {fields.map((field) => {
              const shown = submitted || touched[field.name] === true;
              return (
                <TextInput
                  key={field.name}
                  label={field.label}
                  required
                  autoComplete={field.autoComplete}
                  inputMode={field.inputMode}
                  placeholder={field.placeholder}
                  maxLength={field.maxLength}
                  spellCheck={false}
                  value={values[field.name]}
                  error={shown ? problems[field.name] : undefined}
                  description={
                    field.name === 'cardNumber' && brand !== null
                      ? `${CARD_BRAND_NAMES[brand]} card`
                      : undefined
                  }
                  onBlur={() => setTouched((current) => ({ ...current, [field.name]: true }))}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setValues((current) => ({ ...current, [field.name]: value }));
                  }}
                />
              );
            })}
          </SimpleGrid>
          <Text size="sm" c="dimmed" id="billing-card-privacy">
            The card number and CVV go to the payment provider only. We keep the brand, the last four digits,
            the expiry date and the cardholder name.
          </Text>
          <OutcomeAlert outcome={outcome} />
          <div>
            <Button type="submit" loading={busy}>
              Add card
            </Button>
          </div>
        </Stack>
      </form>
    </Paper>
  );
}
