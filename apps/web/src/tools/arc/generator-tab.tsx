import { Alert, Fieldset, Kbd, List, NumberInput, Select, SimpleGrid, Stack, TagsInput } from '@mantine/core';
import {
  ARC_DEFAULTS,
  type ArcAlgorithm,
  type ArcCanonicalization,
  arcCanonicalizations,
  type ArcChainValue,
  arcChainValues,
  arcGenerateBody,
  arcMaxInstance,
  arcOperations,
  type ArcPreviewSettings,
  arcSettingsRequiredMessage,
  buildArcPreview,
} from '@rfckit/standards';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { CopyBlock } from '../../components/copy-block.tsx';
import {
  AlgorithmRadios,
  GeneratorForm,
  SigningDomainFields,
  type AlgorithmChoice,
} from '../../components/generator-form.tsx';
import { formErrorKey, useCheckedForm } from '../../components/operation-form.tsx';
import { monospaceInput, requestPanelState } from '../../components/request-form.ts';
import { SealResult } from './seal-result.tsx';
import { useOperation } from '../../lib/operations.ts';

interface FormState {
  /** NumberInput gives '' while the field is empty. */
  instance: number | string;
  algorithm: ArcAlgorithm;
  domain: string;
  selector: string;
  headers: string[];
  bodyLength: number | string;
  chain: ArcChainValue;
  canonicalization: ArcCanonicalization;
  message: string;
  privateKey: string;
}

const initialForm: FormState = {
  instance: ARC_DEFAULTS.instance,
  algorithm: ARC_DEFAULTS.algorithm,
  domain: '',
  selector: '',
  headers: [...ARC_DEFAULTS.headers],
  bodyLength: '',
  chain: ARC_DEFAULTS.chain,
  canonicalization: ARC_DEFAULTS.canonicalization,
  message: '',
  privateKey: '',
};

const algorithmChoices: AlgorithmChoice<ArcAlgorithm>[] = [
  {
    value: 'rsa-sha256',
    badge: 'MUST',
    note: 'Signers must sign with rsa-sha256 (RFC 8301 §3.1). Every ARC validator supports it.',
  },
  {
    value: 'ed25519-sha256',
    note: 'Short keys (RFC 8463). Few validators support it in ARC yet.',
  },
  {
    value: 'rsa-sha1',
    badge: 'MUST NOT',
    note: 'Verifiers must not accept rsa-sha1 (RFC 8301 §3.1): the chain fails at every validator.',
  },
];

const chainLabels: Record<ArcChainValue, string> = {
  none: 'none: no ARC set on arrival (i=1)',
  pass: 'pass: the chain on arrival validated',
  fail: 'fail: the chain on arrival was broken',
};

const placeholder = [
  'From: Alice <alice@example.com>',
  'To: list@lists.example.org',
  'Subject: Hello',
  'Date: Mon, 23 Nov 2026 08:00:00 +0000',
  'Authentication-Results: lists.example.org; spf=pass smtp.mailfrom=example.com',
  '',
  'Hello list.',
].join('\n');

/** The generator's settings as the schema and the preview take them; blank numbers are left out. */
function settingsOf(form: FormState): ArcPreviewSettings & { domain: string; selector: string } {
  return {
    instance: typeof form.instance === 'number' ? form.instance : ARC_DEFAULTS.instance,
    algorithm: form.algorithm,
    domain: form.domain,
    selector: form.selector,
    headers: form.headers,
    ...(typeof form.bodyLength === 'number' ? { bodyLength: form.bodyLength } : {}),
    chain: form.chain,
    canonicalization: form.canonicalization,
  };
}

/**
 * The seal request of the form: blank numbers and the defaults of i= and cv= are left out (the
 * server takes them from the message and warns only about a value asked for), as is a blank key.
 */
function sealBody(form: FormState): z.input<typeof arcGenerateBody> {
  return {
    algorithm: form.algorithm,
    domain: form.domain,
    selector: form.selector,
    headers: form.headers,
    canonicalization: form.canonicalization,
    message: form.message,
    ...(typeof form.instance === 'number' && form.instance !== ARC_DEFAULTS.instance
      ? { instance: form.instance }
      : {}),
    ...(typeof form.bodyLength === 'number' ? { bodyLength: form.bodyLength } : {}),
    ...(form.chain === ARC_DEFAULTS.chain ? {} : { chain: form.chain }),
    ...(form.privateKey.trim() === '' ? {} : { privateKey: form.privateKey }),
  };
}

/** Folded fields use CRLF; on screen a line break is enough. */
const display = (field: string) => field.replace(/\r\n/g, '\n');

function PreviewField({ name, value }: { name: string; value: string }) {
  return (
    <CopyBlock label={name} value={display(value)} copyLabel={`Copy ${name}`} ariaLabel={`${name} preview`} />
  );
}

/**
 * The Generator tab: the ARC settings with a live preview of the three header fields, and sealing a
 * pasted message on the server with the given private key or a fresh one.
 */
export function GeneratorTab() {
  // the settings, checked by the seal body's schema on blur and on submit (the one input rule)
  const { form: formState, validated } = useCheckedForm({
    initialValues: initialForm,
    check: (values: FormState) => arcGenerateBody.safeParse(sealBody(values)),
    fallbackError: arcSettingsRequiredMessage,
  });
  const form = formState.values;
  const sealing = useOperation(arcOperations.generate);
  // the domain and selector the shown result was sealed with, for the key's file name
  const [sealedAs, setSealedAs] = useState({ domain: '', selector: '' });

  // pure and cheap: recomputed on every change, so the preview is always live
  const preview = buildArcPreview(settingsOf(form));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (sealing.isPending) return;
    const values = formState.getValues();
    const body = validated(values);
    if (body === undefined) {
      // a message sealed with other settings is not this submission's
      sealing.reset();
      return;
    }
    setSealedAs({ domain: values.domain, selector: values.selector });
    sealing.mutate(body);
  }

  const state = requestPanelState(sealing, {
    pending: 'Sealing the message…',
    empty:
      'Fill in the domain and selector, paste a message and choose Seal message: the ARC set and the sealed message appear here.',
    errorMessage: (error) => `Sealing failed: ${error.message}`,
    success: (data) => ({
      title: `Message sealed: ARC set i=${data.instance}, cv=${data.cv}`,
      ...(data.warnings.length === 0 ? { tone: 'positive' as const } : {}),
      children: <SealResult data={data} domain={sealedAs.domain} selector={sealedAs.selector} />,
    }),
  });

  return (
    <GeneratorForm
      formLabel="ARC generator"
      onSubmit={submit}
      error={formState.errors[formErrorKey]}
      submitLabel="Seal message"
      pendingLabel="Sealing..."
      pending={sealing.isPending}
      result={state}
      resultLabel="Seal result"
      preview={
        <>
          <PreviewField name="ARC-Seal" value={preview.arcSeal} />
          <PreviewField name="ARC-Message-Signature" value={preview.arcMessageSignature} />
          <PreviewField name="ARC-Authentication-Results" value={preview.arcAuthenticationResults} />
          <List size="sm" spacing={4} aria-label="Preview notes">
            {preview.notes.map((note) => (
              <List.Item key={note}>{note}</List.Item>
            ))}
          </List>
        </>
      }
    >
      <SigningDomainFields
        domainProps={formState.getInputProps('domain')}
        selectorProps={formState.getInputProps('selector')}
        domainDescription="d= of the seal and signature: your sealing domain"
        selectorDescription="s=: the key is at selector._domainkey.domain"
        domainPlaceholder="lists.example.org"
        selectorPlaceholder="arc"
      />

      <AlgorithmRadios
        choices={algorithmChoices}
        value={form.algorithm}
        onChange={(value) => formState.setFieldValue('algorithm', value)}
        description="a= of the seal and signature"
      />
      {form.algorithm === 'rsa-sha1' && (
        <Alert color="red" variant="light" title="rsa-sha1 MUST NOT be used">
          RFC 8301 §3.1: verifiers must not consider rsa-sha1 signatures valid, so every validator fails an
          ARC set sealed this way. Offered only to test validators.
        </Alert>
      )}

      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberInput
          label="Instance"
          description={`i=: 1 for the first ARC set, at most ${arcMaxInstance}`}
          {...formState.getInputProps('instance')}
          min={1}
          max={arcMaxInstance}
          allowDecimal={false}
          allowNegative={false}
        />
        <Select
          label="Chain validation status"
          description="cv= of the seal; the server computes it from the message and warns when it differs"
          data={arcChainValues.map((value) => ({ value, label: chainLabels[value] }))}
          value={form.chain}
          onChange={(value) => value && formState.setFieldValue('chain', value as ArcChainValue)}
          allowDeselect={false}
        />
        <Select
          label="Canonicalization"
          description="c= of the signature, header/body (the seal is always relaxed)"
          data={[...arcCanonicalizations]}
          value={form.canonicalization}
          onChange={(value) =>
            value && formState.setFieldValue('canonicalization', value as ArcCanonicalization)
          }
          allowDeselect={false}
        />
        <NumberInput
          label="Body length"
          description="l=: sign only this many octets of the body; leave empty to sign it all"
          {...formState.getInputProps('bodyLength')}
          min={0}
          allowDecimal={false}
          allowNegative={false}
        />
      </SimpleGrid>

      <TagsInput
        label="Signed header fields"
        description="h= of the ARC-Message-Signature, in order; from is required. Enter or comma adds one."
        {...formState.getInputProps('headers')}
        splitChars={[',', ' ', ':']}
        allowDuplicates
        clearable
      />

      <Fieldset legend="Seal a message">
        <Stack gap="sm">
          <CodeTextarea
            label="Message"
            description={
              <>
                The raw message to seal, header fields and body. Its Authentication-Results for your domain go
                into the ARC-Authentication-Results; existing ARC sets set the instance and cv=.{' '}
                <Kbd size="xs">Ctrl</Kbd> + <Kbd size="xs">Enter</Kbd> seals.
              </>
            }
            placeholder={placeholder}
            {...formState.getInputProps('message')}
            minRows={6}
            maxRows={18}
          />
          <CodeTextarea
            label="Private key (PEM, optional)"
            description="PKCS#8 or PKCS#1 RSA, or PKCS#8 Ed25519. It is sent to the server to seal this message and is not stored. Leave it empty and the server makes a fresh key, offered once as a download with the DKIM record to publish."
            placeholder="-----BEGIN PRIVATE KEY-----"
            {...formState.getInputProps('privateKey')}
            minRows={3}
            maxRows={10}
            styles={monospaceInput}
          />
        </Stack>
      </Fieldset>
    </GeneratorForm>
  );
}
