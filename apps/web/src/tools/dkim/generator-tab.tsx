import {
  Alert,
  Button,
  Checkbox,
  Code,
  Fieldset,
  Group,
  Paper,
  Radio,
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
import { monospaceInput } from '../../components/request-form.ts';
import { RequirementBadge } from '../../components/requirement-badge.tsx';
import { ResultPanel, type ResultPanelState } from '../../components/result-panel.tsx';
import { saveFile } from '../../lib/save-file.ts';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
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

const algorithmChoices: { value: DkimAlgorithm; label: string; badge?: 'MUST' | 'MUST NOT'; note: string }[] =
  [
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

function Output({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" align="center">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <CopyButton value={value} label={copyLabel} />
      </Group>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {value}
      </Code>
    </Stack>
  );
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
              <Table.Td ff="monospace">{value}</Table.Td>
              <Table.Td>{meaning}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

export function GeneratorTab() {
  const [form, setForm] = useState<FormState>(initialForm);
  const [formError, setFormError] = useState<string | null>(null);
  const [kind, setKind] = useState<KeyPairKind>(defaultKind(initialForm.algorithm));
  const [keyBusy, setKeyBusy] = useState(false);
  const [keyError, setKeyError] = useState<string | null>(null);
  // held only until downloaded: the page offers the private key once
  const [privateKey, setPrivateKey] = useState<string | null>(null);
  const [downloaded, setDownloaded] = useState(false);
  const generation = useOperation(dkimOperations.generate);

  function update<K extends keyof FormState>(key: K, value: FormState[K]) {
    setForm((previous) => ({ ...previous, [key]: value }));
    if (formError) setFormError(null);
  }

  function chooseAlgorithm(value: string) {
    const algorithm = value as DkimAlgorithm;
    update('algorithm', algorithm);
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
      update('publicKey', pair.publicKey);
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

  const body: DkimGenerateBody = { ...form };
  const preview = useMemo(() => {
    if (form.domain.trim() === '' || form.selector.trim() === '' || form.publicKey.trim() === '') return null;
    return generateDkimRecord(form);
  }, [form]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (generation.isPending) return;
    if (form.domain.trim() === '' || form.selector.trim() === '' || form.publicKey.trim() === '') {
      setFormError(dkimRequiredMessage);
      return;
    }
    // a private key pasted by mistake stays in the browser
    if (dkimPrivateKeyPattern.test(form.publicKey)) {
      setFormError(`Failed to generate DKIM record: ${dkimPrivateKeyMessage}`);
      return;
    }
    generation.mutate(body);
  }

  let state: ResultPanelState;
  if (generation.isPending) state = { status: 'empty', prompt: 'Generating the record…' };
  else if (generation.isError) {
    state = { status: 'error', message: `Failed to generate DKIM record: ${generation.error.message}` };
  } else if (generation.data) {
    const data = generation.data;
    state = {
      status: 'success',
      title: 'DKIM record generated',
      // a record with warnings (rsa-sha1, a short key) is not one to celebrate
      ...(data.warnings.length === 0 ? { tone: 'positive' as const } : {}),
      children: (
        <Stack gap="md">
          <Output label="DNS name (TXT)" value={data.dnsName} copyLabel="Copy DNS name" />
          <Output label="TXT record" value={data.record} copyLabel="Copy record" />
          <Output
            label={`Zone-file line (${data.txtStrings.length} string${data.txtStrings.length > 1 ? 's' : ''} of at most 255 characters)`}
            value={data.zoneFileLine}
            copyLabel="Copy zone-file line"
          />
          <SignerSettings signer={data.signer} />
          <DiagnosticList variant="list" diagnostics={data.diagnostics} label="Generator warnings" />
        </Stack>
      ),
    };
  } else {
    state = {
      status: 'empty',
      prompt: 'Fill in the domain, selector and public key, then choose Generate record.',
    };
  }

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate aria-label="DKIM record generator">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Domain"
              description="The signing domain, the d= of your signatures"
              placeholder="example.com"
              value={form.domain}
              onChange={(event) => update('domain', event.currentTarget.value)}
              required
              autoComplete="off"
              spellCheck={false}
            />
            <TextInput
              label="Selector"
              description="Names this key: selector._domainkey.domain"
              value={form.selector}
              onChange={(event) => update('selector', event.currentTarget.value)}
              required
              autoComplete="off"
              spellCheck={false}
            />
          </SimpleGrid>

          <Radio.Group
            label="Algorithm"
            value={form.algorithm}
            onChange={chooseAlgorithm}
            description="The a= your signer will use"
          >
            <Stack gap="xs" mt="xs">
              {algorithmChoices.map((choice) => (
                <Radio
                  key={choice.value}
                  value={choice.value}
                  label={
                    <Group gap="xs" wrap="nowrap">
                      <Text span ff="monospace" size="sm">
                        {choice.label}
                      </Text>
                      {choice.badge && <RequirementBadge level={choice.badge} size="xs" />}
                    </Group>
                  }
                  description={choice.note}
                />
              ))}
            </Stack>
          </Radio.Group>
          {form.algorithm === 'rsa-sha1' && (
            <Alert color="red" variant="light" title="rsa-sha1 MUST NOT be used">
              RFC 8301 §3.1: signers must use rsa-sha256, and verifiers must not consider rsa-sha1 signatures
              valid. Mail signed this way counts as unsigned.
            </Alert>
          )}

          <Fieldset legend="Key pair">
            <Stack gap="sm">
              <Text size="sm">
                Generate the key pair in this browser, or paste a public key you already have. A generated
                private key stays in this tab until you download it; it is never sent to the server.
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
                      Your signer needs this private key. It is offered once: after the download this page
                      forgets it.
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
                label="Public key"
                description="Base64 or PEM. RSA: the SubjectPublicKeyInfo; Ed25519: the 32-byte key (a PEM is unwrapped)."
                value={form.publicKey}
                onChange={(event) => update('publicKey', event.currentTarget.value)}
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
              onChange={(value) => value && update('canonicalization', value as DkimCanonicalization)}
              allowDeselect={false}
            />
            <Select
              label="Service type"
              description="s= in the record"
              data={serviceTypeOptions}
              value={form.serviceType}
              onChange={(value) => value && update('serviceType', value as DkimServiceType)}
              allowDeselect={false}
            />
          </SimpleGrid>

          <Checkbox.Group
            label="Flags (t=)"
            value={form.flags}
            onChange={(value) => update('flags', value as DkimFlag[])}
          >
            <Stack gap="xs" mt="xs">
              <Checkbox value="y" label="y: testing mode (verifiers treat failures like unsigned mail)" />
              <Checkbox value="s" label="s: the i= domain must equal d=, no subdomains" />
            </Stack>
          </Checkbox.Group>

          <TextInput
            label="Notes"
            description="n=, for administrators; verifiers ignore it"
            value={form.notes}
            onChange={(event) => update('notes', event.currentTarget.value)}
            maxLength={512}
          />

          <Paper withBorder p="sm" aria-live="polite" aria-label="Live preview" component="section">
            <Text size="sm" fw={600} mb={4}>
              Live preview
            </Text>
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
                <Code
                  block
                  style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                  data-testid="dkim-preview"
                >
                  {preview.result.record}
                </Code>
              </Stack>
            )}
            {preview && !preview.ok && (
              <Text size="sm" c="var(--mantine-color-error)">
                {preview.error}
              </Text>
            )}
          </Paper>

          {formError && (
            <Alert color="red" variant="light" role="alert">
              {formError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" disabled={generation.isPending}>
              {generation.isPending ? 'Generating...' : 'Generate record'}
            </Button>
          </Group>
        </Stack>
      </form>
      <ResultPanel state={state} label="Generated record" />
    </Stack>
  );
}
