import {
  Button,
  Group,
  List,
  NativeSelect,
  NumberInput,
  Radio,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  generateMtaSts,
  mtaStsDefaultMaxAge,
  mtaStsDefaultMode,
  mtaStsGenerateBody,
  mtaStsIdFromDate,
  mtaStsMaxMxPatterns,
  quotedTxtStrings,
  type MtaStsGenerateResultData,
  type MtaStsMode,
} from '@rfckit/standards';
import { useMemo, useState } from 'react';

import { CopyBlock } from '../../components/copy-block.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { DomainField } from '../../components/domain-field.tsx';
import { LivePreviewLayout } from '../../components/live-preview-layout.tsx';
import { type ResultPanelState } from '../../components/result-panel.tsx';
import { TextRowList } from '../../components/text-row-list.tsx';

interface FormState {
  domain: string;
  mode: MtaStsMode;
  mx: string[];
  maxAge: number | string;
  idSource: 'date' | 'counter';
  counter: string;
}

const initialState: FormState = {
  domain: '',
  mode: mtaStsDefaultMode,
  mx: [''],
  maxAge: mtaStsDefaultMaxAge,
  idSource: 'date',
  counter: '1',
};

const modeOptions = [
  { value: 'enforce', label: 'enforce: deliver only over valid TLS to listed MX hosts' },
  { value: 'testing', label: 'testing: report failures, still deliver' },
  { value: 'none', label: 'none: withdraw the policy' },
];

type Generated =
  | { ok: true; result: MtaStsGenerateResultData }
  | { ok: false; errors: Record<string, string>; message: string | null };

/** Checks the form with the operation's body schema and builds what the API would (runsIn 'both'). */
function generate(form: FormState, dateId: string): Generated {
  const maxAge =
    typeof form.maxAge === 'number'
      ? form.maxAge
      : form.maxAge.trim() === ''
        ? Number.NaN
        : Number(form.maxAge);
  const parsed = mtaStsGenerateBody.safeParse({
    domain: form.domain,
    mode: form.mode,
    mx: form.mx,
    maxAge,
    id: form.idSource === 'date' ? dateId : form.counter,
  });
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= issue.message;
    if (Number.isNaN(maxAge)) errors.maxAge = 'max_age must be a non-negative integer';
    return { ok: false, errors, message: null };
  }
  const outcome = generateMtaSts(parsed.data);
  if (!outcome.ok) return { ok: false, errors: {}, message: outcome.error };
  return { ok: true, result: outcome.result };
}

function Preview({ result }: { result: MtaStsGenerateResultData }) {
  return (
    <Stack gap="sm">
      <Title order={4}>1. DNS TXT record</Title>
      <CopyBlock
        label="Name"
        value={result.record.name}
        copyLabel="Copy name"
        copyAriaLabel="Copy record name"
        testId="mta-sts-record-name"
      />
      <CopyBlock
        label="Value"
        value={result.record.value}
        copyAriaLabel="Copy TXT record value"
        testId="mta-sts-record"
      />
      <CopyBlock
        label="Zone-file line"
        value={`${result.record.name}. 3600 IN TXT ${quotedTxtStrings(result.record.value)}`}
        copyLabel="Copy line"
        copyAriaLabel="Copy zone-file line"
      />
      <Title order={4}>2. Policy file</Title>
      <CopyBlock
        label={
          <>
            Served at <span style={{ overflowWrap: 'anywhere' }}>{result.policy.url}</span>
          </>
        }
        value={result.policy.text}
        copyAriaLabel="Copy policy file"
        testId="mta-sts-policy"
      >
        <Text size="xs" c="dimmed">
          Lines end with CRLF; Content-Type: {result.policy.contentType}.
        </Text>
      </CopyBlock>
      <Title order={4}>3. Hosting</Title>
      <List type="ordered" size="sm" spacing={4} aria-label="Hosting steps">
        {result.hosting.map((step) => (
          <List.Item key={step} style={{ overflowWrap: 'anywhere' }}>
            {step}
          </List.Item>
        ))}
      </List>
      <DiagnosticList
        diagnostics={result.diagnostics}
        variant="section"
        label="Notes on this policy"
        heading={4}
      />
    </Stack>
  );
}

export function GeneratorTab() {
  const settings = useForm<FormState>({ initialValues: initialState });
  const form = settings.values;
  // taken once, so the preview does not change under the user; a button takes the time again
  const [dateId, setDateId] = useState(() => mtaStsIdFromDate(new Date()));
  const generated = useMemo(() => generate(form, dateId), [form, dateId]);
  const errors = generated.ok ? {} : generated.errors;
  const update = (patch: Partial<FormState>) => settings.setValues(patch);

  const state: ResultPanelState =
    form.domain.trim() === ''
      ? {
          status: 'empty',
          prompt:
            'Domain is required: enter your domain to see its TXT record, policy file and hosting steps.',
        }
      : generated.ok
        ? {
            status: 'success',
            title: `MTA-STS for ${generated.result.policy.host.slice('mta-sts.'.length)}`,
            children: <Preview result={generated.result} />,
          }
        : {
            status: 'error',
            message: generated.message ?? 'Correct the fields marked above to see the record and policy.',
          };

  return (
    <LivePreviewLayout
      resultLabel="Generated MTA-STS record and policy"
      state={state}
      advice={
        <>
          Publish the policy file first and the TXT record last: a record without a reachable policy protects
          nothing. The Validator tab checks a policy you already serve.
        </>
      }
      form={
        <form onSubmit={(event) => event.preventDefault()} noValidate aria-label="MTA-STS generator">
          <Stack gap="md">
            <DomainField
              description="Your mail domain (the Policy Domain): the record goes to _mta-sts.{domain}, the policy to mta-sts.{domain}."
              required
              value={form.domain}
              onChange={(event) => update({ domain: event.currentTarget.value })}
              error={form.domain.trim() === '' ? undefined : errors.domain}
            />
            <NativeSelect
              label="Mode"
              description="Start with testing and a TLS-RPT record; enforce once reports are clean."
              data={modeOptions}
              value={form.mode}
              onChange={(event) => update({ mode: event.currentTarget.value as MtaStsMode })}
            />
            <TextRowList
              legend="MX hosts (mx)"
              description="One pattern per MX host, as in your MX records. *.example.com allows exactly one label in front (mx1.example.com, not a.b.example.com). Blank rows are left out."
              rowLabel="MX host pattern"
              removeLabel="Remove MX host pattern"
              addLabel="Add MX host"
              values={form.mx}
              onChange={(mx) => update({ mx })}
              errorOf={(index) => errors[`mx.${index}`]}
              placeholderOf={(index) => (index === 0 ? 'mail.example.com' : '*.mx.example.net')}
              max={mtaStsMaxMxPatterns}
            />
            <NumberInput
              label="max_age (seconds)"
              description="How long senders cache the policy: 604800 is a week, 31557600 (the most) a year."
              min={0}
              max={31557600}
              allowDecimal={false}
              allowNegative={false}
              value={form.maxAge}
              onChange={(value) => update({ maxAge: value })}
              error={errors.maxAge}
            />
            <Radio.Group
              label="Record id"
              description="Senders fetch the policy again only when the id changes: give every policy change a new one."
              value={form.idSource}
              onChange={(value) => update({ idSource: value as FormState['idSource'] })}
            >
              <Stack gap={6} mt={6}>
                <Radio value="date" label={`From the date and time, UTC (${dateId})`} />
                <Radio value="counter" label="A counter you keep" />
              </Stack>
            </Radio.Group>
            {form.idSource === 'date' ? (
              <Button
                type="button"
                variant="default"
                size="xs"
                style={{ alignSelf: 'flex-start' }}
                onClick={() => setDateId(mtaStsIdFromDate(new Date()))}
              >
                Use the current time
              </Button>
            ) : (
              <TextInput
                label="Counter"
                description="1 to 32 letters or digits; raise it with every change."
                value={form.counter}
                onChange={(event) => update({ counter: event.currentTarget.value })}
                error={errors.id}
                autoCapitalize="off"
                autoComplete="off"
                spellCheck={false}
              />
            )}
            <Group>
              <Button type="button" variant="default" onClick={() => settings.setValues(initialState)}>
                Reset to defaults
              </Button>
            </Group>
          </Stack>
        </form>
      }
    />
  );
}
