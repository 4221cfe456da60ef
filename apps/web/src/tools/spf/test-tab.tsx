import { Code, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { type SpfCheckResultData, spfOperations } from '@rfckit/standards';

import { DomainField } from '../../components/domain-field.tsx';
import { omitBlank, OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { failureMessage } from '../../lib/failure-message.ts';
import { TraceList } from './trace-list.tsx';

/** What each result tells the receiver (RFC 7208 §2.6, §8). */
const resultMeaning: Record<SpfCheckResultData['result'], string> = {
  pass: 'The host is authorised to send for the domain.',
  fail: 'The domain says this host is not authorised: receivers may reject the message.',
  softfail: 'The host is probably not authorised; receivers usually accept and mark the message.',
  neutral: 'The domain makes no statement about this host.',
  none: 'No SPF record was found, or no domain could be checked.',
  permerror:
    'The record is broken (syntax, more than 10 lookups, too many void lookups, several records): the domain must fix it.',
  temperror: 'A DNS error stopped the check; a receiver would try again later.',
};

function CheckResult({ result }: { result: SpfCheckResultData }) {
  return (
    <Stack gap="md">
      <Text size="sm">{resultMeaning[result.result]}</Text>
      <Table withTableBorder variant="vertical" layout="fixed" aria-label="Check summary">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row" w={180}>
              Result
            </Table.Th>
            <Table.Td data-testid="spf-check-result">{result.result}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">Why</Table.Th>
            <Table.Td>{result.reason}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">Deciding term</Table.Th>
            <Table.Td>
              {result.mechanism ? (
                <>
                  <Code>{result.mechanism.term}</Code> in the record of {result.mechanism.domain}
                </>
              ) : (
                'none'
              )}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">Domain checked</Table.Th>
            <Table.Td>{result.domain}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">DNS lookups</Table.Th>
            <Table.Td>
              {result.lookups} of 10, {result.voidLookups} void of 2
            </Table.Td>
          </Table.Tr>
          {result.explanation !== undefined && (
            <Table.Tr>
              <Table.Th scope="row">Explanation</Table.Th>
              <Table.Td data-testid="spf-explanation">{result.explanation}</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      <Text fw={600} size="sm">
        Trace
      </Text>
      <TraceList trace={result.trace} />
    </Stack>
  );
}

/** Runs check_host() on the server for a connecting IP, a MAIL FROM and a HELO name, as a receiver would. */
export function TestTab() {
  const { form, request, onSubmit } = useOperationForm({
    operation: spfOperations.check,
    initialValues: { ip: '', sender: '', helo: '', domain: '' },
    toBody: (values) => omitBlank(values, 'domain'),
    errorField: 'ip',
    fallbackError: 'Failed to check SPF',
  });
  const field = (name: keyof typeof form.values) => ({
    ...form.getInputProps(name),
    autoCapitalize: 'off',
    autoComplete: 'off',
    spellCheck: false,
  });

  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="SPF test"
      resultLabel="Test result"
      submitLabel="Run test"
      pendingLabel="Testing..."
      panel={{
        pending: 'Evaluating the SPF record…',
        empty:
          'Enter the connecting IP address and a sender, a HELO name or a domain to see what a receiver would decide.',
        errorMessage: (error) => failureMessage(error, 'Failed to check SPF'),
        success: (data) => ({
          title: `SPF result: ${data.result}`,
          tone:
            data.result === 'pass'
              ? 'positive'
              : data.result === 'neutral' || data.result === 'none'
                ? undefined
                : 'negative',
          children: <CheckResult result={data} />,
        }),
      }}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="IP address"
          description="The SMTP client's address, IPv4 or IPv6."
          placeholder="192.0.2.10"
          required
          {...field('ip')}
        />
        <TextInput
          label="Sender (MAIL FROM)"
          description="Empty for the null sender: then postmaster@HELO is checked."
          placeholder="bounce@example.com"
          {...field('sender')}
        />
        <TextInput
          label="HELO name"
          description="The name the client gave in HELO/EHLO."
          placeholder="mail.example.com"
          {...field('helo')}
        />
        <DomainField
          label="Domain (optional)"
          description="The domain whose record is checked; the sender's domain by default."
          {...form.getInputProps('domain')}
        />
      </SimpleGrid>
    </OperationForm>
  );
}
