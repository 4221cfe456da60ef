import { Button, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import {
  securityTxtFetchBody,
  type SecurityTxtFetchResultData,
  securityTxtOperations,
} from '@rfckit/standards';
import { useState, type FormEvent } from 'react';

import { monospaceInput, requestPanelState } from '../../components/request-form.ts';
import { ResultPanel } from '../../components/result-panel.tsx';
import { AttemptsView, FetchSourceView } from './fetch-source.tsx';
import { useOperation } from '../../lib/operations.ts';
import { failureMessage } from '../../lib/failure-message.ts';
import { ValidationResultView } from './validation-result.tsx';

function resultTitle(data: SecurityTxtFetchResultData): string {
  if (data.source === null) return 'No security.txt found';
  return data.valid ? 'Valid security.txt' : 'Invalid security.txt';
}

function FetchResultView({ data }: { data: SecurityTxtFetchResultData }) {
  return (
    <Stack gap="lg">
      {data.source && <FetchSourceView source={data.source} />}
      {(data.source === null || data.attempts.length > 1) && <AttemptsView attempts={data.attempts} />}
      <ValidationResultView result={data} content={data.source?.content ?? ''} />
    </Stack>
  );
}

/** The Validator's fetch mode: the server retrieves the site's file and adds the HTTP checks. */
export function FetchValidator() {
  const [domain, setDomain] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const fetching = useOperation(securityTxtOperations.fetch);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (fetching.isPending) return;
    const body = publicKey.trim() ? { domain, publicKey } : { domain };
    // the shared schema gives the same message the server would
    const parsed = securityTxtFetchBody.safeParse(body);
    if (!parsed.success) {
      setInputError(parsed.error.issues[0]?.message ?? 'Domain is required');
      fetching.reset();
      return;
    }
    setInputError(null);
    fetching.mutate(parsed.data);
  }

  const state = requestPanelState(fetching, {
    pending: 'Fetching the file and validating it…',
    empty: 'Enter a site and choose Fetch and validate to see where the file was found and every finding.',
    errorMessage: (error) => failureMessage(error, 'Validation failed'),
    success: (data) => ({
      title: resultTitle(data),
      tone: data.valid ? 'positive' : 'negative',
      children: <FetchResultView data={data} />,
    }),
  });

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate aria-label="Fetch and validate security.txt">
        <Stack gap="sm">
          <TextInput
            label="Site"
            description="A domain such as example.com, or any URL of the site. The server asks https://<domain>/.well-known/security.txt, then /security.txt, then both over http. Only public addresses are fetched."
            placeholder="example.com"
            value={domain}
            onChange={(event) => {
              setDomain(event.currentTarget.value);
              if (inputError) setInputError(null);
            }}
            error={inputError}
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            autoCapitalize="off"
          />
          <Textarea
            label="Signer’s OpenPGP public key (optional)"
            description="For a signed file: paste the key it should be signed with, and the signature is verified."
            placeholder="-----BEGIN PGP PUBLIC KEY BLOCK-----"
            value={publicKey}
            onChange={(event) => setPublicKey(event.currentTarget.value)}
            autosize
            minRows={2}
            maxRows={10}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            styles={monospaceInput}
          />
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              Adds the RFC 9116 §3 checks: location, https, certificate, Content-Type, charset and Canonical.
            </Text>
            <Button type="submit" disabled={fetching.isPending}>
              {fetching.isPending ? 'Fetching...' : 'Fetch and validate'}
            </Button>
          </Group>
        </Stack>
      </form>
      <ResultPanel state={state} label="Fetch result" />
    </Stack>
  );
}
