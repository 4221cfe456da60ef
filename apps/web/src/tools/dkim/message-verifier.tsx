import { Badge, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { dkimKeyNotCheckedReason, dkimOperations, type DkimSignatureVerdict } from '@rfckit/standards';
import type { ReactNode } from 'react';

import { FieldRow } from '../../components/data-table.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { CtrlEnterHint, PasteValidator } from '../../components/paste-validator.tsx';

const placeholder = 'DKIM-Signature: v=1; a=ed25519-sha256; c=relaxed/relaxed; d=example.com; s=…\nFrom: …';

const resultColour: Record<DkimSignatureVerdict['result'], string> = {
  pass: 'green.9',
  fail: 'red.9',
  neutral: 'gray.7',
  temperror: 'orange.9',
  permerror: 'red.9',
  policy: 'orange.9',
};

function Mono({ children }: { children: ReactNode }) {
  return (
    <Text span ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
      {children}
    </Text>
  );
}

/** One signature: its tags, the body-hash check, the key and the verdict with its reason. */
function SignatureCard({ signature, index }: { signature: DkimSignatureVerdict; index: number }) {
  const name = `Signature ${index + 1}: ${signature.s ?? '?'}._domainkey.${signature.d ?? '?'}`;
  return (
    <Paper withBorder p="md" component="section" aria-label={name}>
      <Stack gap="sm">
        <Group gap="sm">
          <Title order={4} size="h5">
            {name}
          </Title>
          {/* our resolver failed the key lookup: no verdict on the signature, so neutral, no fix */}
          {signature.reason === dkimKeyNotCheckedReason ? (
            <Badge color="gray.7" autoContrast data-could-not-check>
              not checked
            </Badge>
          ) : (
            <Badge color={resultColour[signature.result]} autoContrast>
              {signature.result}
            </Badge>
          )}
        </Group>
        {signature.reason && (
          <Text size="sm">
            {signature.reason}
            {signature.rfc && ` (${signature.rfc})`}
          </Text>
        )}
        {signature.testing && (
          <Text size="sm">
            The key has t=y: {signature.d ?? 'the domain'} is testing DKIM, and verifiers must not treat its
            mail differently from unsigned mail because of this result (RFC 6376 §3.6.1).
          </Text>
        )}
        <Table withTableBorder fz="sm" aria-label={`${name} details`}>
          <Table.Tbody>
            <FieldRow labelWidth={180} label="Domain (d=)">
              <Mono>{signature.d ?? '—'}</Mono>
            </FieldRow>
            <FieldRow labelWidth={180} label="Selector (s=)">
              <Mono>{signature.s ?? '—'}</Mono>
            </FieldRow>
            <FieldRow labelWidth={180} label="Algorithm (a=)">
              <Mono>{signature.a ?? '—'}</Mono>
            </FieldRow>
            <FieldRow labelWidth={180} label="Canonicalization (c=)">
              <Mono>{signature.c ?? 'simple/simple'}</Mono>
            </FieldRow>
            <FieldRow labelWidth={180} label="Signed headers (h=)">
              <Mono>{signature.signedHeaders.length > 0 ? signature.signedHeaders.join(', ') : '—'}</Mono>
            </FieldRow>
            <FieldRow labelWidth={180} label="Identity (i=)">
              <Mono>{signature.i ?? `@${signature.d ?? '?'} (default)`}</Mono>
            </FieldRow>
            <FieldRow labelWidth={180} label="Body hash">
              {/* a signature refused before its body was hashed (e.g. an i= outside d=) has no computed hash */}
              {signature.bodyHash.computed === null
                ? 'not checked'
                : signature.bodyHash.match
                  ? 'matches bh='
                  : 'does not match bh='}
              {!signature.bodyHash.match && signature.bodyHash.computed && (
                <>
                  {' '}
                  (computed <Code>{signature.bodyHash.computed}</Code>)
                </>
              )}
            </FieldRow>
            <FieldRow labelWidth={180} label="Key">
              {signature.key
                ? signature.key.record === null
                  ? `none found at ${signature.key.dnsName} (${signature.key.lookup})`
                  : `${signature.key.type ?? 'unknown'}${signature.key.size ? `, ${signature.key.size} bits` : ''}, ${signature.key.status ?? 'unreadable'}`
                : 'not looked up'}
            </FieldRow>
            <FieldRow labelWidth={180} label="Signed (t=)">
              {signature.signedAt ?? '—'}
            </FieldRow>
            <FieldRow labelWidth={180} label="Expires (x=)">
              {signature.expiresAt
                ? `${signature.expiresAt}${signature.expired ? ' (expired)' : ''}`
                : 'never'}
            </FieldRow>
          </Table.Tbody>
        </Table>
        {signature.key && (
          <DiagnosticList
            variant="list"
            diagnostics={signature.key.diagnostics}
            label={`${name} key findings`}
          />
        )}
      </Stack>
    </Paper>
  );
}

/** Message mode: verifies every DKIM-Signature of a pasted message with the keys in DNS. */
export function MessageVerifier() {
  return (
    <PasteValidator
      operation={dkimOperations.verifyMessage}
      field="message"
      formLabel="Verify a message"
      label="Message"
      description={
        <>
          The raw message as received, header fields and body (up to 5 MiB). Keys are looked up in DNS;
          rsa-sha1 and RSA keys under 1024 bits fail (RFC 8301).
          <CtrlEnterHint action="verifies" />
        </>
      }
      placeholder={placeholder}
      minRows={6}
      maxRows={20}
      fallbackError="Message is required"
      submitLabel="Verify"
      pendingLabel="Verifying..."
      panel={{
        pending: 'Verifying the signatures…',
        empty: 'Paste a whole message, header and body, and choose Verify to check each DKIM signature here.',
        errorMessage: (error) => `Verification failed: ${error.message}`,
        success: (data) => ({
          title:
            data.summary.result === 'none'
              ? 'No DKIM signature'
              : data.summary.result === 'pass'
                ? 'DKIM signature verified'
                : 'DKIM verification failed',
          tone: data.summary.result === 'pass' ? 'positive' : 'negative',
          children: (
            <Stack gap="md">
              <Text size="sm">{data.summary.message}</Text>
              {data.signatures.map((signature, index) => (
                <SignatureCard key={index} signature={signature} index={index} />
              ))}
            </Stack>
          ),
        }),
      }}
    />
  );
}
