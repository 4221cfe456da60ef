import {
  Alert,
  Button,
  Checkbox,
  Code,
  Fieldset,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  type DkimAlgorithm,
  type DkimCanonicalization,
  dkimCanonicalizations,
  type DkimFlag,
  dkimGenerateBody,
  type DkimGenerateBody,
  type DkimGenerateResultData,
  dkimGeneratorDefaults,
  dkimOperations,
  dkimPrivateKeyMessage,
  dkimPrivateKeyPattern,
  dkimRequiredMessage,
  type DkimServiceType,
  generateDkimRecord,
} from '@rfckit/standards';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';

import { CopyButton } from '../../components/copy-button.tsx';
import { monospaceInput, requestPanelState } from '../../components/request-form.ts';
import { saveFile } from '../../lib/save-file.ts';
import { CopyBlock } from '../../components/copy-block.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import {
  AlgorithmRadios,
  GeneratorForm,
  SigningDomainFields,
  type AlgorithmChoice,
} from '../../components/generator-form.tsx';
import { useCheckedForm, formErrorKey, type BodyCheck } from '../../components/operation-form.tsx';
import { generateKeyPair, keyPairKinds, type KeyPairKind } from './key-pair.ts';
import { useOperation } from '../../lib/operations.ts';

interface FormState {
  domain: string;
  selector: string;
  publicKey: string;
  algorithm: DkimAlgorithm;
  canonicalization: DkimCanonicalization;
  serviceType: DkimServiceType;
  flags: DkimFlag[];
  notes: string;
}

const initialForm: FormState = {
  domain: '',
  selector: dkimGeneratorDefaults.selector,
  publicKey: '',
  algorithm: dkimGeneratorDefaults.algorithm,
  canonicalization: dkimGeneratorDefaults.canonicalization,
  serviceType: dkimGeneratorDefaults.serviceType,
  flags: [],
  notes: '',
};

const algorithmChoices: AlgorithmChoice<DkimAlgorithm>[] = [
  {
    value: 'rsa-sha256',
    label: 'rsa-sha256',
    badge: 'MUST',
    note: 'Signers must sign with rsa-sha256 (RFC 8301 §3.1).',
  },
  {
    value: 'ed25519-sha256',
    label: 'ed25519-sha256',
    note: 'Short keys (RFC 8463). Not every verifier supports it yet: sign with an RSA key as well.',
  },
  {
    value: 'rsa-sha1',
    label: 'rsa-sha1',
    badge: 'MUST NOT',
    note: 'Verifiers must not accept rsa-sha1 signatures (RFC 8301 §3.1). Offered only for old signers.',
  },
];

const serviceTypeOptions = [
  { value: 'email', label: 'email' },
  { value: '*', label: '* (all services)' },
];

function defaultKind(algorithm: DkimAlgorithm): KeyPairKind {
  return algorithm === 'ed25519-sha256' ? 'ed25519' : 'rsa-2048';
}

/** The generate body's check, and a private key pasted by mistake refused before it leaves the browser. */
function checkGenerate(values: FormState): BodyCheck<DkimGenerateBody> {
  const checked = dkimGenerateBody.safeParse(values);
  if (!dkimPrivateKeyPattern.test(values.publicKey)) return checked;
  const issues = [{ path: ['publicKey'], message: dkimPrivateKeyMessage }, ...(checked.error?.issues ?? [])];
  return { success: false, error: { issues } };
}

function SignerSettings({ signer }: { signer: DkimGenerateResultData['signer'] }) {
  const rows: [string, string, ReactNode][] = [
    ['a=', signer.a, 'Signature algorithm'],
    ['c=', signer.c, 'Canonicalization, header/body (RFC 6376 §3.4)'],
    ['d=', signer.d, 'Signing domain'],
    ['s=', signer.s, 'Selector'],
  ];
  return (
    <Stack gap={4}>
      <Group justify="space-between" align="center">
        <Title order={4} size="h5">
          Signer settings
        </Title>
        <CopyButton
          value={`a=${signer.a}; c=${signer.c}; d=${signer.d}; s=${signer.s}`}
          label="Copy signer settings"
        />
      </Group>
      <Table withTableBorder fz="sm" aria-label="Signer settings">
        <Table.Tbody>
          {rows.map(([tag, value, meaning]) => (
            <Table.Tr key={tag}>
              <Table.Th scope="row" w={60}>
                <Code>{tag}</Code>
              </Table.Th>
              <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Table.Td>
              <Table.Td>{meaning}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

export function GeneratorTab() {
  // the settings, checked by the generate body's schema on blur and on submit (the one input rule)
  const { form: settings, validated } = useCheckedForm({
    initialValues: initialForm,
    check: checkGenerate,
    fallbackError: dkimRequiredMessage,
  });
  const form = settings.values;
  const [kind, setKind] = useState<KeyPairKind>(defaultKind(initialForm.algorithm));
  const [keyBusy, setKeyBusy] = useState(false);
  const [keyError, setKeyError] = useState<string | null>(null);
  // held only until downloaded: the page offers the private key once
  const [privateKey, setPrivateKey] = useState<string | null>(null);
  const [downloaded, setDownloaded] = useState(false);
  const generation = useOperation(dkimOperations.generate);

  function chooseAlgorithm(algorithm: DkimAlgorithm) {
    settings.setFieldValue('algorithm', algorithm);
    const matches = keyPairKinds.find((entry) => entry.value === kind)?.algorithm;
    if ((algorithm === 'ed25519-sha256') !== (matches === 'ed25519')) setKind(defaultKind(algorithm));
  }

  const kindOptions = keyPairKinds
    .filter((entry) => (form.algorithm === 'ed25519-sha256') === (entry.algorithm === 'ed25519'))
    .map(({ value, label }) => ({ value, label }));

  async function makeKeyPair() {
    setKeyBusy(true);
    setKeyError(null);
    try {
      const pair = await generateKeyPair(kind);
      settings.setFieldValue('publicKey', pair.publicKey);
      setPrivateKey(pair.privateKeyPem);
      setDownloaded(false);
    } catch (error) {
      setKeyError(`Key generation failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setKeyBusy(false);
    }
  }

  function downloadPrivateKey() {
    if (privateKey === null) return;
    const name = `${form.selector.trim() || 'dkim'}.${form.domain.trim() || 'private'}.key.pem`;
    saveFile(new Blob([privateKey], { type: 'application/x-pem-file' }), name);
    setPrivateKey(null);
    setDownloaded(true);
  }

  const preview = useMemo(() => {
    if (form.domain.trim() === '' || form.selector.trim() === '' || form.publicKey.trim() === '') return null;
    return generateDkimRecord(form);
  }, [form]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (generation.isPending) return;
    const body = validated(settings.getValues());
    // a record generated from other settings is not this submission's
    if (body === undefined) generation.reset();
    else generation.mutate(body);
  }

  const state = requestPanelState(generation, {
    pending: 'Generating the record…',
    empty: 'Fill in the domain, selector and public key, then choose Generate record.',
    errorMessage: (error) => `Failed to generate DKIM record: ${error.message}`,
    success: (data) => ({
      title: 'DKIM record generated',
      // a record with warnings (rsa-sha1, a short key) is not one to celebrate
      ...(data.warnings.length === 0 ? { tone: 'positive' as const } : {}),
      children: (
        <Stack gap="md">
          <CopyBlock label="DNS name (TXT)" value={data.dnsName} copyLabel="Copy DNS name" />
          <CopyBlock label="TXT record" value={data.record} copyLabel="Copy record" />
          <CopyBlock
            label={`Zone-file line (${data.txtStrings.length} string${data.txtStrings.length > 1 ? 's' : ''} of at most 255 characters)`}
            value={data.zoneFileLine}
            copyLabel="Copy zone-file line"
          />
          <SignerSettings signer={data.signer} />
          <DiagnosticList variant="list" diagnostics={data.diagnostics} label="Generator warnings" />
        </Stack>
      ),
    }),
  });

  return (
    <GeneratorForm
      formLabel="DKIM record generator"
      onSubmit={submit}
      error={settings.errors[formErrorKey]}
      submitLabel="Generate record"
      pendingLabel="Generating..."
      pending={generation.isPending}
      result={state}
      resultLabel="Generated record"
      preview={
        <>
          {preview === null && (
            <Text size="sm" c="dimmed">
              The record appears here as soon as domain, selector and public key are filled in.
            </Text>
          )}
          {preview && preview.ok && (
            <Stack gap={4}>
              <Text size="sm" ff="monospace">
                {preview.result.dnsName} TXT
              </Text>
              <Code block className="mono-block" data-testid="dkim-preview">
                {preview.result.record}
              </Code>
            </Stack>
          )}
          {preview && !preview.ok && (
            <Text size="sm" c="var(--mantine-color-error)">
              {preview.error}
            </Text>
          )}
        </>
      }
    >
      <SigningDomainFields
        domainProps={settings.getInputProps('domain')}
        selectorProps={settings.getInputProps('selector')}
        domainDescription="The signing domain, the d= of your signatures"
        selectorDescription="Names this key: selector._domainkey.domain"
      />

      <AlgorithmRadios
        choices={algorithmChoices}
        value={form.algorithm}
        onChange={chooseAlgorithm}
        description="The a= your signer will use"
      />
      {form.algorithm === 'rsa-sha1' && (
        <Alert color="red" variant="light" title="rsa-sha1 MUST NOT be used">
          RFC 8301 §3.1: signers must use rsa-sha256, and verifiers must not consider rsa-sha1 signatures
          valid. Mail signed this way counts as unsigned.
        </Alert>
      )}

      <Fieldset legend="Key pair">
        <Stack gap="sm">
          <Text size="sm">
            Generate the key pair in this browser, or paste a public key you already have. A generated private
            key stays in this tab until you download it; it is never sent to the server.
          </Text>
          <Group align="flex-end">
            <Select
              label="Key type"
              data={kindOptions}
              value={kind}
              onChange={(value) => value && setKind(value as KeyPairKind)}
              allowDeselect={false}
              w={200}
            />
            <Button variant="default" onClick={() => void makeKeyPair()} disabled={keyBusy}>
              {keyBusy ? 'Generating key pair...' : 'Generate key pair'}
            </Button>
          </Group>
          {keyError && (
            <Alert color="red" variant="light">
              {keyError}
            </Alert>
          )}
          {privateKey !== null && (
            <Alert color="yellow" variant="light" title="Download the private key now">
              <Stack gap="xs">
                <Text size="sm">
                  Your signer needs this private key. It is offered once: after the download this page forgets
                  it.
                </Text>
                <Group>
                  <Button onClick={downloadPrivateKey}>Download private key (PEM)</Button>
                </Group>
              </Stack>
            </Alert>
          )}
          {downloaded && (
            <Text size="sm" role="status">
              Private key downloaded. This page no longer holds it.
            </Text>
          )}
          <Textarea
            {...settings.getInputProps('publicKey')}
            label="Public key"
            description="Base64 or PEM. RSA: the SubjectPublicKeyInfo; Ed25519: the 32-byte key (a PEM is unwrapped)."
            required
            autosize
            minRows={3}
            maxRows={10}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            styles={monospaceInput}
          />
        </Stack>
      </Fieldset>

      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Canonicalization"
          description="The c= your signer will use (header/body)"
          data={[...dkimCanonicalizations]}
          value={form.canonicalization}
          onChange={(value) =>
            value && settings.setFieldValue('canonicalization', value as DkimCanonicalization)
          }
          allowDeselect={false}
        />
        <Select
          label="Service type"
          description="s= in the record"
          data={serviceTypeOptions}
          value={form.serviceType}
          onChange={(value) => value && settings.setFieldValue('serviceType', value as DkimServiceType)}
          allowDeselect={false}
        />
      </SimpleGrid>

      <Checkbox.Group
        label="Flags (t=)"
        value={form.flags}
        onChange={(value) => settings.setFieldValue('flags', value as DkimFlag[])}
      >
        <Stack gap="xs" mt="xs">
          <Checkbox value="y" label="y: testing mode (verifiers treat failures like unsigned mail)" />
          <Checkbox value="s" label="s: the i= domain must equal d=, no subdomains" />
        </Stack>
      </Checkbox.Group>

      <TextInput
        label="Notes"
        description="n=, for administrators; verifiers ignore it"
        {...settings.getInputProps('notes')}
        maxLength={512}
      />
    </GeneratorForm>
  );
}
