import { Button, Group, Kbd, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { dmarcOperations, dmarcValidateBody, type DmarcValidationResultData } from '@rfckit/standards';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

import { ResultPanel, type ResultPanelState } from '../../components/result-panel.tsx';
import { useOperation } from '../../lib/operations.ts';
import { failureMessage } from '../../lib/failure-message.ts';
import { ValidationResultView } from './validation-result.tsx';

const monospace = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

function title(result: DmarcValidationResultData): string {
  if (result.record === null)
    return result.domain ? `No DMARC policy for ${result.domain}` : 'No DMARC record';
  return result.valid ? 'Valid DMARC record' : 'Invalid DMARC record';
}

/**
 * A domain (the server discovers its policy through DNS), a pasted record, or both: the record is
 * then checked as if it were published at the domain, before you publish it.
 */
export function ValidatorTab() {
  const [domain, setDomain] = useState('');
  const [record, setRecord] = useState('');
  const [errors, setErrors] = useState<{ domain?: string; record?: string }>({});
  const formRef = useRef<HTMLFormElement>(null);
  const validation = useOperation(dmarcOperations.validate);
  const empty = domain.trim() === '' && record.trim() === '';

  function submit(event: FormEvent) {
    event.preventDefault();
    if (validation.isPending || empty) return;
    const body = {
      ...(record.trim() === '' ? {} : { record }),
      ...(domain.trim() === '' ? {} : { domain }),
    };
    // the shared schema gives the messages the server would
    const parsed = dmarcValidateBody.safeParse(body);
    if (!parsed.success) {
      const found: { domain?: string; record?: string } = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] === 'domain' ? 'domain' : 'record';
        found[key] ??= issue.message;
      }
      setErrors(found);
      validation.reset();
      return;
    }
    setErrors({});
    validation.mutate(parsed.data);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      formRef.current?.requestSubmit();
    }
  }

  let state: ResultPanelState;
  if (validation.isPending) {
    state = {
      status: 'empty',
      prompt: domain.trim() ? `Looking up the DMARC policy of ${domain.trim()}…` : 'Validating the record…',
    };
  } else if (validation.isError) {
    state = { status: 'error', message: failureMessage(validation.error, 'Validation failed') };
  } else if (validation.data) {
    state = {
      status: 'success',
      title: title(validation.data),
      tone: validation.data.valid ? 'positive' : 'negative',
      children: <ValidationResultView result={validation.data} />,
    };
  } else {
    state = {
      status: 'empty',
      prompt:
        'Enter a domain to look up its DMARC policy, paste a record to check it, or both to check the record as if it were published at the domain.',
    };
  }

  return (
    <Stack gap="lg">
      <form ref={formRef} onSubmit={submit} noValidate aria-label="DMARC validator">
        <Stack gap="sm">
          <TextInput
            label="Domain"
            description="The server follows the RFC 9989 DNS tree walk from this domain, as a receiver does."
            placeholder="example.com"
            value={domain}
            onChange={(event) => {
              setDomain(event.currentTarget.value);
              if (errors.domain) setErrors({ ...errors, domain: undefined });
            }}
            error={errors.domain}
            autoCapitalize="off"
            autoComplete="off"
            spellCheck={false}
          />
          <Textarea
            label="DMARC record"
            description={
              <>
                The TXT value, or the quoted strings dig prints. With a domain, it is checked as if published
                at _dmarc.{'{domain}'}. <Kbd size="xs">Ctrl</Kbd> + <Kbd size="xs">Enter</Kbd> validates.
              </>
            }
            placeholder="v=DMARC1; p=none; rua=mailto:dmarc-reports@example.com"
            value={record}
            onChange={(event) => {
              setRecord(event.currentTarget.value);
              if (errors.record) setErrors({ ...errors, record: undefined });
            }}
            onKeyDown={onKeyDown}
            error={errors.record}
            autosize
            minRows={3}
            maxRows={12}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            styles={monospace}
          />
          <Group justify="space-between" align="center">
            <Text size="xs" c="dimmed">
              The server asks DNS the questions a receiver would: at most eight for the tree walk.
            </Text>
            <Button type="submit" disabled={validation.isPending || empty}>
              {validation.isPending ? 'Validating...' : 'Validate'}
            </Button>
          </Group>
        </Stack>
      </form>
      <ResultPanel state={state} label="Validation result" />
    </Stack>
  );
}
