import { Alert, Button, Code, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type DkimDnsResultData, dkimOperations, dkimSelectorsBody } from '@rfckit/standards';

import { FieldRow } from '../../components/data-table.tsx';
import { monospaceInput, requestPanelState } from '../../components/request-form.ts';
import { ResultPanel } from '../../components/result-panel.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { CouldNotCheckNotice } from '../../components/could-not-check.tsx';
import { DomainField } from '../../components/domain-field.tsx';
import { useOperationForm } from '../../components/operation-form.tsx';
import { couldNotCheck } from '../../lib/failure-message.ts';
import { useOperation } from '../../lib/operations.ts';
import { ValidationResultView } from './validation-result.tsx';

const resultTitle: Record<DkimDnsResultData['status'], string> = {
  valid: 'Valid DKIM key published',
  invalid: 'Invalid DKIM key record',
  revoked: 'Revoked DKIM key',
  'not-found': 'No DKIM key found',
  error: 'DNS lookup failed',
};

/** What the DNS answer means for the key, in words. */
const lookupText: Record<DkimDnsResultData['lookup'], string> = {
  ok: 'TXT record found',
  nxdomain: 'Not found: the name does not exist (NXDOMAIN)',
  nodata: 'Not found: the name has no TXT record',
  servfail: 'No answer: the name servers failed (SERVFAIL)',
  timeout: 'No answer: the lookup timed out',
  error: 'No answer: the lookup failed',
};

/** The lookup (name, delegation, TTL, the record as served), its findings and the record's validation. */
export function DnsResultView({ result }: { result: DkimDnsResultData }) {
  // issues are the lookup's findings followed by the validation's
  const lookupIssues = result.issues.slice(
    0,
    result.issues.length - (result.validation?.diagnostics.length ?? 0),
  );
  return (
    <Stack gap="md">
      <Table withTableBorder fz="sm" aria-label="DNS lookup">
        <Table.Tbody>
          <FieldRow label="Name">
            <Text span ff="monospace" size="sm">
              {result.dnsName}
            </Text>
          </FieldRow>
          {result.cnames.length > 0 && (
            <FieldRow label="Delegated to">
              {result.cnames.map((cname) => (
                <Text key={cname.name} ff="monospace" size="sm">
                  {cname.name} → {cname.target} (CNAME, TTL {cname.ttl})
                </Text>
              ))}
            </FieldRow>
          )}
          <FieldRow label="Lookup">{lookupText[result.lookup]}</FieldRow>
          {/* no record, no TTL: a negative answer's caching time is not the key's */}
          {result.ttl !== null && <FieldRow label="TTL">{result.ttl} seconds</FieldRow>}
          {result.strings.length > 1 && (
            <FieldRow label="Strings">{result.strings.length} character-strings joined</FieldRow>
          )}
        </Table.Tbody>
      </Table>
      {result.record !== null && (
        <Stack gap={4}>
          <Title order={4} size="h5">
            Record
          </Title>
          <Code
            block
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            aria-label="Published record"
          >
            {result.record}
          </Code>
        </Stack>
      )}
      {result.record === null && result.txtRecords.length > 0 && (
        <Stack gap={4}>
          <Title order={4} size="h5">
            TXT records at this name
          </Title>
          {result.txtRecords.map((text, index) => (
            <Code
              key={index}
              block
              style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              aria-label={`TXT record ${index + 1}`}
            >
              {text}
            </Code>
          ))}
        </Stack>
      )}
      <DiagnosticList variant="list" diagnostics={lookupIssues} label="DNS findings" />
      {result.validation && <ValidationResultView result={result.validation} />}
    </Stack>
  );
}

/** DNS mode: fetches selector._domainkey.domain through the server and validates it; finds common selectors. */
export function DnsValidator() {
  const {
    form,
    request: lookup,
    onSubmit,
    send,
  } = useOperationForm({
    operation: dkimOperations.dns,
    initialValues: { domain: '', selector: '' },
    errorField: 'domain',
    fallbackError: 'Domain and selector are required',
  });
  const discovery = useOperation(dkimOperations.selectors);
  // one message under both fields: it names what is missing
  const inputError = Object.values(form.errors)[0];
  const field = (name: 'domain' | 'selector') => ({ ...form.getInputProps(name), error: undefined });

  function findSelectors() {
    if (discovery.isPending) return;
    const parsed = dkimSelectorsBody.safeParse({ domain: form.values.domain });
    if (!parsed.success) {
      form.setErrors({ domain: parsed.error.issues[0]?.message ?? 'Domain is required' });
      discovery.reset();
      return;
    }
    form.clearErrors();
    discovery.mutate(parsed.data);
  }

  // our resolver answered for no selector: the neutral "we could not check", retried as it was asked
  const discoveryUnchecked = discovery.isError ? couldNotCheck(discovery.error) : null;
  const retryDiscovery = discovery.variables && (() => discovery.mutate(discovery.variables));

  const state = requestPanelState(lookup, {
    pending: 'Looking up the key…',
    empty: 'Enter a domain and a selector and choose Validate to fetch the published key record.',
    errorMessage: (error) => `DNS validation failed: ${error.message}`,
    success: (data) => ({
      title: resultTitle[data.status],
      tone: data.valid ? 'positive' : 'negative',
      children: <DnsResultView result={data} />,
    }),
  });

  return (
    <Stack gap="lg">
      <form onSubmit={onSubmit} noValidate aria-label="Validate a published DKIM key">
        <Stack gap="sm">
          <Group grow align="flex-start">
            <DomainField monospace {...field('domain')} />
            <TextInput
              label="Selector"
              description="The s= tag of a signature"
              placeholder="default"
              {...field('selector')}
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              styles={monospaceInput}
            />
          </Group>
          {inputError && (
            <Text c="red.8" size="sm" role="alert">
              {inputError}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={findSelectors} disabled={discovery.isPending}>
              {discovery.isPending ? 'Finding selectors...' : 'Find selectors'}
            </Button>
            <Button type="submit" disabled={lookup.isPending}>
              {lookup.isPending ? 'Validating...' : 'Validate'}
            </Button>
          </Group>
        </Stack>
      </form>
      {discoveryUnchecked ? (
        <CouldNotCheckNotice {...discoveryUnchecked} onRetry={retryDiscovery} />
      ) : (
        discovery.isError && (
          <Alert color="red" variant="light" title="Error">
            <Text size="sm">Selector discovery failed: {discovery.error.message}</Text>
          </Alert>
        )
      )}
      {discovery.data && (
        <section aria-label="Selectors found">
          <Stack gap="xs">
            <Text size="sm">
              {discovery.data.found.length === 0
                ? `None of the ${discovery.data.probed} common selectors has a key at ${discovery.data.domain}. DKIM cannot list selectors: read the s= tag of a signed message.`
                : `${discovery.data.found.length} of ${discovery.data.probed} common selectors have a key at ${discovery.data.domain}. Choose one to validate it.`}
            </Text>
            <Group gap="xs">
              {discovery.data.found.map((found) => (
                <Button
                  key={found.selector}
                  size="xs"
                  variant="light"
                  color={found.status === 'valid' ? 'green' : 'red'}
                  title={found.source}
                  onClick={() => {
                    form.setFieldValue('selector', found.selector);
                    send({ ...form.getValues(), selector: found.selector });
                  }}
                >
                  {found.selector} ({found.keyType ?? 'unknown'}
                  {found.keySize === null ? '' : ` ${found.keySize} bits`}
                  {found.status === 'valid' ? '' : `, ${found.status}`})
                </Button>
              ))}
            </Group>
            {discovery.data.failed.length > 0 && (
              <Text size="sm" c="dimmed">
                Lookups failed for {discovery.data.failed.map((entry) => entry.selector).join(', ')}.
              </Text>
            )}
            {discovery.data.unchecked.length > 0 && (
              <Text size="sm" c="dimmed">
                Time ran out before {discovery.data.unchecked.join(', ')} could be checked.
              </Text>
            )}
          </Stack>
        </section>
      )}
      <ResultPanel state={state} label="Validation result" />
    </Stack>
  );
}
