import {
  ActionIcon,
  Button,
  Checkbox,
  Code,
  Fieldset,
  Group,
  NativeSelect,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  generateSpf,
  quotedTxtStrings,
  SPF_LOOKUP_LIMIT,
  spfGenerateBody,
  type SpfGenerateBody,
  type SpfGenerateInput,
  type SpfGenerateResultData,
} from '@rfckit/standards';
import { useId, useMemo, useState } from 'react';

import { CopyBlock } from '../../components/copy-block.tsx';
import { computedPanelState, monospaceInput } from '../../components/request-form.ts';
import { ResultPanel } from '../../components/result-panel.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { LookupBudget } from './lookup-budget.tsx';
import { spfPresets } from './presets.ts';

/** Shown when the form cannot make a record; the field's own message says which. */
export const GENERATE_FAILED_MESSAGE = 'Failed to generate SPF record. Please try again.';

type EntryKind = 'ip4' | 'ip6' | 'a' | 'mx' | 'include' | 'exists';

interface Entry {
  id: number;
  kind: EntryKind;
  value: string;
}

const kindLabels: Record<EntryKind, string> = {
  ip4: 'ip4: IPv4 address or network',
  ip6: 'ip6: IPv6 address or network',
  a: "a: a host's addresses",
  mx: "mx: a domain's mail servers",
  include: "include: another domain's record",
  exists: 'exists: a name that resolves',
};

const placeholders: Record<EntryKind, string> = {
  ip4: '192.0.2.0/24',
  ip6: '2001:db8::/32',
  a: 'mail.example.com',
  mx: 'example.net',
  include: '_spf.example.net',
  exists: '%{i}._spf.example.com',
};

type AllQualifier = SpfGenerateInput['all'];

const allOptions: { value: AllQualifier; label: string; description: string }[] = [
  {
    value: '~',
    label: '~all (softfail)',
    description:
      'The default here: mail from hosts you have not listed is marked, not refused. Keep it while DMARC reports show whether a sender is missing.',
  },
  {
    value: '-',
    label: '-all (fail)',
    description: 'Receivers may refuse mail from any other host. Switch to it once every sender is listed.',
  },
  {
    value: '?',
    label: '?all (neutral)',
    description: 'Says nothing about other hosts: the record protects nothing.',
  },
  {
    value: '+',
    label: '+all (pass)',
    description: 'Lets every host on the internet send as you. Never publish it.',
  },
  { value: 'none', label: 'No all', description: 'Use with redirect=, or for a record that others include.' },
];

const kindOrder: readonly EntryKind[] = ['ip4', 'ip6', 'a', 'mx', 'include', 'exists'];

interface FormState {
  domain: string;
  presets: string[];
  aSelf: boolean;
  mxSelf: boolean;
  entries: Entry[];
  all: AllQualifier;
  redirect: string;
  exp: string;
}

const initialState: FormState = {
  domain: '',
  presets: [],
  aSelf: false,
  mxSelf: false,
  entries: [],
  all: '~',
  redirect: '',
  exp: '',
};

/** The form as the body of POST /v1/spf/generate: presets become includes, before the user's own. */
export function generateInput(form: FormState): SpfGenerateBody {
  const values = (kind: EntryKind) =>
    form.entries.filter((entry) => entry.kind === kind).map((entry) => entry.value);
  const presetIncludes = spfPresets
    .filter((preset) => form.presets.includes(preset.id))
    .map((preset) => preset.include);
  return {
    domain: form.domain,
    ip4: values('ip4'),
    ip6: values('ip6'),
    aSelf: form.aSelf,
    mxSelf: form.mxSelf,
    a: values('a'),
    mx: values('mx'),
    include: [...presetIncludes, ...values('include')],
    exists: values('exists'),
    all: form.all,
    redirect: form.redirect,
    exp: form.exp,
  };
}

type Preview = { ok: true; result: SpfGenerateResultData } | { ok: false; message: string };

function preview(form: FormState): Preview {
  const parsed = spfGenerateBody.safeParse(generateInput(form));
  if (!parsed.success)
    return { ok: false, message: parsed.error.issues[0]?.message ?? GENERATE_FAILED_MESSAGE };
  return { ok: true, result: generateSpf(parsed.data) };
}

function EntryRow({
  entry,
  position,
  onChange,
  onRemove,
}: {
  entry: Entry;
  position: number;
  onChange: (entry: Entry) => void;
  onRemove: () => void;
}) {
  return (
    <Group component="li" align="flex-end" gap="xs" wrap="wrap">
      <NativeSelect
        label={`Mechanism ${position}`}
        value={entry.kind}
        onChange={(event) => onChange({ ...entry, kind: event.currentTarget.value as EntryKind })}
        data={kindOrder.map((kind) => ({ value: kind, label: kindLabels[kind] }))}
        w={260}
      />
      <TextInput
        label={`Value ${position}`}
        value={entry.value}
        placeholder={placeholders[entry.kind]}
        onChange={(event) => onChange({ ...entry, value: event.currentTarget.value })}
        autoCapitalize="off"
        autoComplete="off"
        spellCheck={false}
        styles={monospaceInput}
        style={{ flex: 1, minWidth: 200 }}
      />
      <ActionIcon variant="default" size="lg" aria-label={`Remove mechanism ${position}`} onClick={onRemove}>
        ×
      </ActionIcon>
    </Group>
  );
}

/**
 * Builds a record in the browser: provider presets, hand-written mechanisms, the `all` qualifier and
 * the modifiers. The preview, its lookup count and its findings come from the same parser the
 * server's validator uses.
 */
export function GeneratorTab() {
  // the settings: @mantine/form holds them, as it holds every tool form's values
  const settings = useForm<FormState>({ initialValues: initialState });
  const form = settings.values;
  const [nextId, setNextId] = useState(1);
  const result = useMemo(() => preview(form), [form]);
  const presetsLabelId = useId();

  function update(patch: Partial<FormState>) {
    settings.setValues(patch);
  }

  function addEntry() {
    update({ entries: [...form.entries, { id: nextId, kind: 'ip4', value: '' }] });
    setNextId(nextId + 1);
  }

  const name = form.domain.trim() === '' ? 'example.com' : form.domain.trim().replace(/\.$/, '');
  const state = computedPanelState(
    result.ok ? { ok: true, value: result.result } : result,
    ({ record, lookups, diagnostics, valid }) => ({
      title: 'Your SPF record',
      tone: valid ? undefined : 'negative',
      children: (
        <Stack gap="sm">
          <CopyBlock
            label={`TXT record at ${name}`}
            value={record}
            copyAriaLabel="Copy SPF record"
            copySize="sm"
            testId="spf-record"
          />
          <Text size="sm" fw={600}>
            Zone file line
          </Text>
          <Code block className="mono-block" data-testid="spf-zone-line">
            {`${name}. 3600 IN TXT ${quotedTxtStrings(record)}`}
          </Code>
          <LookupBudget
            lookups={lookups}
            label="DNS lookups in this record"
            note="Each include also spends the lookups of the record it names, so a receiver counts more: check the total with the Validator once the record is published."
          />
          {diagnostics.length > 0 ? (
            <DiagnosticList diagnostics={diagnostics} record={record} heading={4} />
          ) : (
            <Text size="sm">No problems found in the record itself.</Text>
          )}
        </Stack>
      ),
    }),
  );

  return (
    <Stack gap="lg">
      <form onSubmit={(event) => event.preventDefault()} noValidate aria-label="SPF generator">
        <Stack gap="md">
          <TextInput
            label="Domain"
            description="Where the record is published; only used for the zone file line."
            placeholder="example.com"
            value={form.domain}
            onChange={(event) => update({ domain: event.currentTarget.value })}
            autoCapitalize="off"
            autoComplete="off"
            spellCheck={false}
          />
          <Fieldset legend="Mail providers" aria-describedby={presetsLabelId}>
            <Text size="xs" c="dimmed" mb="xs" id={presetsLabelId}>
              Each adds the include its documentation gives, and costs at least one lookup.
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
              {spfPresets.map((preset) => (
                <Checkbox
                  key={preset.id}
                  label={preset.name}
                  description={
                    <>
                      <Code>include:{preset.include}</Code>
                      {preset.note ? ` ${preset.note}` : ''}
                    </>
                  }
                  checked={form.presets.includes(preset.id)}
                  onChange={(event) => {
                    const checked = event.currentTarget.checked;
                    update({
                      presets: checked
                        ? [...form.presets, preset.id]
                        : form.presets.filter((id) => id !== preset.id),
                    });
                  }}
                />
              ))}
            </SimpleGrid>
          </Fieldset>
          <Fieldset legend="Mechanisms">
            <Stack gap="xs">
              <Group gap="lg">
                <Checkbox
                  label="a: this domain's own addresses"
                  checked={form.aSelf}
                  onChange={(event) => update({ aSelf: event.currentTarget.checked })}
                />
                <Checkbox
                  label="mx: this domain's mail servers"
                  checked={form.mxSelf}
                  onChange={(event) => update({ mxSelf: event.currentTarget.checked })}
                />
              </Group>
              {form.entries.length === 0 && (
                <Text size="sm" c="dimmed">
                  Add your own servers (ip4, ip6, a, mx of other hosts) and other include or exists terms.
                </Text>
              )}
              <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
                {form.entries.map((entry, index) => (
                  <EntryRow
                    key={entry.id}
                    entry={entry}
                    position={index + 1}
                    onChange={(changed) =>
                      update({ entries: form.entries.map((e) => (e.id === entry.id ? changed : e)) })
                    }
                    onRemove={() => update({ entries: form.entries.filter((e) => e.id !== entry.id) })}
                  />
                ))}
              </Stack>
              <Button
                type="button"
                variant="default"
                size="xs"
                style={{ alignSelf: 'flex-start' }}
                onClick={addEntry}
                disabled={form.entries.length >= 30}
              >
                Add mechanism
              </Button>
            </Stack>
          </Fieldset>
          <Radio.Group
            label="Other hosts (the all mechanism)"
            value={form.all}
            onChange={(value) => update({ all: value as AllQualifier })}
          >
            <Stack gap="xs" mt="xs">
              {allOptions.map((option) => (
                <Radio
                  key={option.value}
                  value={option.value}
                  label={option.label}
                  description={option.description}
                />
              ))}
            </Stack>
          </Radio.Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Redirect (redirect=)"
              description="Use another domain's record when nothing here matched; ignored if the record has all."
              placeholder="_spf.example.com"
              value={form.redirect}
              onChange={(event) => update({ redirect: event.currentTarget.value })}
              autoCapitalize="off"
              autoComplete="off"
              spellCheck={false}
              styles={monospaceInput}
            />
            <TextInput
              label="Explanation (exp=)"
              description="A name whose TXT record receivers may quote after a fail."
              placeholder="explain._spf.example.com"
              value={form.exp}
              onChange={(event) => update({ exp: event.currentTarget.value })}
              autoCapitalize="off"
              autoComplete="off"
              spellCheck={false}
              styles={monospaceInput}
            />
          </SimpleGrid>
        </Stack>
      </form>
      <ResultPanel state={state} label="Generated record" />
      <Text size="xs" c="dimmed">
        At most {SPF_LOOKUP_LIMIT} lookups in total, one record per name, and allow up to 24 hours for DNS
        changes to reach every resolver.
      </Text>
    </Stack>
  );
}
