import { NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { daneCheckProtocols, daneOperations, type DaneCheckProtocol } from '@rfckit/standards';

import { DomainField } from '../../components/domain-field.tsx';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { failureMessage } from '../../lib/failure-message.ts';
import { LiveCheckView, liveCheckTitle } from './live-check-result.tsx';

const protocols: Record<DaneCheckProtocol, { label: string; port: number }> = {
  smtp: { label: 'SMTP (MX hosts of a mail domain)', port: 25 },
  https: { label: 'HTTPS', port: 443 },
  imap: { label: 'IMAP', port: 143 },
  pop3: { label: 'POP3', port: 110 },
  xmpp: { label: 'XMPP', port: 5269 },
  ldap: { label: 'LDAP', port: 389 },
  ftp: { label: 'FTP', port: 21 },
  postgres: { label: 'PostgreSQL', port: 5432 },
};

const protocolOptions = daneCheckProtocols.map((value) => ({ value, label: protocols[value].label }));

/**
 * Checks a live service against its TLSA records: for SMTP each MX host of the mail domain (RFC 7672),
 * else the host at `_port._tcp.host`; the DNS answers validated by rfckit from the root, the chain the
 * server presents, and the verdict with its reasons and fixes.
 */
export function LiveCheckTab() {
  const { form, request, onSubmit } = useOperationForm({
    operation: daneOperations.check,
    initialValues: { host: '', protocol: 'smtp', port: '25' },
    toBody: ({ host, protocol, port }) => ({
      host,
      protocol: protocol as DaneCheckProtocol,
      ...(port.trim() === '' ? {} : { port: Number(port.trim()) }),
    }),
    errorField: 'host',
    fallbackError: 'Domain is required',
  });
  const protocol = form.getValues().protocol as DaneCheckProtocol;
  const smtp = protocol === 'smtp';
  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="Check a live service against its TLSA records"
      resultLabel="Live check result"
      submitLabel="Check"
      pendingLabel="Checking..."
      hint="DNSSEC is validated by rfckit from the root, not taken from a resolver's AD bit."
      panel={{
        pending: smtp
          ? 'Looking up the MX hosts, validating their DNS and connecting with STARTTLS…'
          : 'Validating the DNS and connecting to the server…',
        empty:
          'Enter a mail domain (or, for other protocols, a server name) to check its DANE/TLSA records live.',
        errorMessage: (error) => failureMessage(error, 'The live check failed'),
        success: (data) => ({
          title: liveCheckTitle(data),
          tone: data.verdict === 'pass' ? 'positive' : data.verdict === 'fail' ? 'negative' : undefined,
          children: <LiveCheckView result={data} />,
        }),
      }}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <DomainField
          label={smtp ? 'Mail domain' : 'Server'}
          placeholder={smtp ? 'example.com' : 'www.example.com'}
          description={smtp ? 'Its MX hosts are checked, as senders do.' : undefined}
          {...form.getInputProps('host')}
        />
        <NativeSelect
          label="Protocol"
          data={protocolOptions}
          {...form.getInputProps('protocol')}
          onChange={(event) => {
            const next = event.currentTarget.value as DaneCheckProtocol;
            // the port follows the protocol until one is typed
            if (form.getValues().port === String(protocols[protocol].port))
              form.setFieldValue('port', String(protocols[next].port));
            form.setFieldValue('protocol', next);
          }}
        />
        <TextInput label="Port" inputMode="numeric" autoComplete="off" {...form.getInputProps('port')} />
      </SimpleGrid>
    </OperationForm>
  );
}
