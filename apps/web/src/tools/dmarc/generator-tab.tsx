import {
  Button,
  Checkbox,
  Fieldset,
  Group,
  NativeSelect,
  NumberInput,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  dmarcGenerateBody,
  dmarcMaxAddresses,
  dmarcGeneratorDefaults,
  type DmarcGeneratorResult,
  type DmarcPolicy,
  dmarcRecordName,
  generateDmarcRecord,
  normalizeDmarcDomain,
  quotedTxtStrings,
} from '@rfckit/standards';
import { useMemo, type ReactNode } from 'react';

import { RequirementBadge } from '../../components/requirement-badge.tsx';
import { computedPanelState } from '../../components/request-form.ts';
import { CopyBlock } from '../../components/copy-block.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { LivePreviewLayout } from '../../components/live-preview-layout.tsx';
import { TextRowList } from '../../components/text-row-list.tsx';
import { addedTagExplanations, RemovedBadge, SpecBadge } from './spec-badge.tsx';

/** Spec part 1 §8. */
export const GENERATE_FAILED_MESSAGE = 'Failed to generate DMARC record. Please try again.';

type Alignment = 'r' | 's';
type NumberValue = number | string;

interface FormState {
  domain: string;
  policy: DmarcPolicy;
  subdomainPolicy: DmarcPolicy;
  aspf: Alignment;
  adkim: Alignment;
  percentage: NumberValue;
  rua: string[];
  ruf: string[];
  ri: NumberValue;
  rf: 'afrf' | 'iodef';
  /** fo: 0 or 1, plus d and s. */
  foWhen: '0' | '1';
  foDkim: boolean;
  foSpf: boolean;
  np: '' | DmarcPolicy;
  testMode: boolean;
  psd: 'u' | 'n' | 'y';
}

/** The spec's defaults (part 1 §9), with one empty row per address list. */
const initialState: FormState = {
  domain: '',
  policy: dmarcGeneratorDefaults.policy,
  subdomainPolicy: dmarcGeneratorDefaults.subdomainPolicy,
  aspf: dmarcGeneratorDefaults.alignment.aspf,
  adkim: dmarcGeneratorDefaults.alignment.adkim,
  percentage: dmarcGeneratorDefaults.percentage,
  rua: [''],
  ruf: [''],
  ri: dmarcGeneratorDefaults.reportingOptions.ri,
  rf: dmarcGeneratorDefaults.reportingOptions.rf,
  foWhen: '0',
  foDkim: false,
  foSpf: false,
  np: '',
  testMode: false,
  psd: 'u',
};

const policyOptions = [
  { value: 'none', label: 'none: monitor only, take no action' },
  { value: 'quarantine', label: 'quarantine: treat failing mail as suspicious' },
  { value: 'reject', label: 'reject: refuse failing mail' },
];

const subdomainOptions = [
  { value: 'none', label: 'none (not published: p applies)' },
  { value: 'quarantine', label: 'quarantine' },
  { value: 'reject', label: 'reject' },
];

const alignmentOptions = [
  { value: 'r', label: 'relaxed (r)' },
  { value: 's', label: 'strict (s)' },
];

type Outcome =
  | { ok: true; result: DmarcGeneratorResult; name: string | null }
  | { ok: false; errors: Record<string, string> };

function numberOrNaN(value: NumberValue): number {
  return typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
}

/** Checks the form with the shared schema and writes the record exactly as the API would. */
function generate(form: FormState): Outcome {
  const errors: Record<string, string> = {};
  if (Number.isNaN(numberOrNaN(form.percentage))) errors.percentage = 'The percentage is from 0 to 100';
  if (Number.isNaN(numberOrNaN(form.ri)))
    errors['reportingOptions.ri'] = 'The report interval is a whole number of seconds';
  const fo = [form.foWhen, ...(form.foDkim ? ['d'] : []), ...(form.foSpf ? ['s'] : [])].join(':');
  const parsed = dmarcGenerateBody.safeParse({
    ...(form.domain.trim() === '' ? {} : { domain: form.domain }),
    policy: form.policy,
    subdomainPolicy: form.subdomainPolicy,
    alignment: { aspf: form.aspf, adkim: form.adkim },
    percentage: numberOrNaN(form.percentage),
    reporting: { rua: form.rua, ruf: form.ruf },
    reportingOptions: { ri: numberOrNaN(form.ri), rf: form.rf, fo },
    ...(form.np === '' ? {} : { nonExistentPolicy: form.np }),
    testMode: form.testMode,
    psd: form.psd,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= issue.message;
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  const normalized = form.domain.trim() === '' ? null : normalizeDmarcDomain(form.domain);
  const domain = normalized?.ok ? normalized.domain : undefined;
  try {
    return {
      ok: true,
      result: generateDmarcRecord({ ...parsed.data, domain }),
      name: domain ? dmarcRecordName(domain) : null,
    };
  } catch (error) {
    console.error('DMARC generation failed', error);
    return { ok: false, errors: {} };
  }
}

/**
 * A field's description led by its badges. The badges stay out of the label, so that the field's
 * accessible name is its label alone and a click on a badge does not move focus to the field.
 */
function Described({ badges, children }: { badges: ReactNode; children: ReactNode }) {
  return (
    <span style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 6 }}>
      {badges}
      <span>{children}</span>
    </span>
  );
}

interface AddressListProps {
  legend: string;
  rowLabel: string;
  addLabel: string;
  values: string[];
  errors: Record<string, string>;
  errorKey: 'reporting.rua' | 'reporting.ruf';
  badge: ReactNode;
  description: string;
  onChange(values: string[]): void;
}

function AddressList({
  legend,
  rowLabel,
  addLabel,
  values,
  errors,
  errorKey,
  badge,
  description,
  onChange,
}: AddressListProps) {
  return (
    <TextRowList
      legend={legend}
      description={<Described badges={badge}>{description}</Described>}
      rowLabel={rowLabel}
      addLabel={addLabel}
      values={values}
      onChange={onChange}
      errorOf={(index) => errors[`${errorKey}.${index}`]}
      placeholderOf={(index) => (index === 0 ? 'dmarc-reports@example.com' : 'reports@provider.example')}
      max={dmarcMaxAddresses}
      inputProps={{ type: 'text', inputMode: 'email' }}
    />
  );
}

export function GeneratorTab() {
  // the settings: @mantine/form holds them, as it holds every tool form's values
  const settings = useForm<FormState>({ initialValues: initialState });
  const form = settings.values;
  const outcome = useMemo(() => generate(form), [form]);
  const errors = outcome.ok ? {} : outcome.errors;

  function update(patch: Partial<FormState>) {
    settings.setValues(patch);
  }

  const state = computedPanelState(
    outcome.ok ? { ok: true, value: outcome } : { ok: false, message: GENERATE_FAILED_MESSAGE },
    ({ result, name }) => {
      const shownName = name ?? '_dmarc.example.com';
      return {
        title: 'Your DMARC record',
        children: (
          <Stack gap="sm">
            <CopyBlock
              label="Name (TXT)"
              value={shownName}
              copyLabel="Copy name"
              copyAriaLabel="Copy record name"
              testId="dmarc-record-name"
            >
              {name === null && (
                <Text size="xs" c="dimmed">
                  Enter your domain above to get its record name: _dmarc.{'{domain}'}.
                </Text>
              )}
            </CopyBlock>
            <CopyBlock
              label="Value"
              value={result.record}
              copyAriaLabel="Copy DMARC record"
              copySize="sm"
              testId="dmarc-record"
            />
            <CopyBlock
              label="Zone-file line"
              value={`${shownName}. 3600 IN TXT ${quotedTxtStrings(result.record)}`}
              copyLabel="Copy line"
              copyAriaLabel="Copy zone-file line"
            />
            {result.diagnostics.length > 0 && <DiagnosticList diagnostics={result.diagnostics} heading={4} />}
          </Stack>
        ),
      };
    },
  );

  return (
    <LivePreviewLayout
      resultLabel="Generated record"
      state={state}
      advice={
        <>
          Start with p=none for 3-6 months and read the aggregate reports. Then move to quarantine, at 25-50%
          first where receivers still honour pct, and to reject once every sender passes.
        </>
      }
      form={
        <form onSubmit={(event) => event.preventDefault()} noValidate aria-label="DMARC generator">
          <Stack gap="md">
            <TextInput
              label="Domain"
              description="The domain mail is sent from; the record is published at _dmarc.{domain}."
              placeholder="example.com"
              value={form.domain}
              onChange={(event) => update({ domain: event.currentTarget.value })}
              error={errors.domain}
              autoCapitalize="off"
              autoComplete="off"
              spellCheck={false}
            />

            <Fieldset legend="Policy">
              <Stack gap="sm">
                <NativeSelect
                  label="Policy (p)"
                  description={
                    <Described badges={<RequirementBadge level="SHOULD" text="RECOMMENDED" size="xs" />}>
                      What receivers do with mail from your domain that fails DMARC.
                    </Described>
                  }
                  data={policyOptions}
                  value={form.policy}
                  onChange={(event) => update({ policy: event.currentTarget.value as DmarcPolicy })}
                />
                <NativeSelect
                  label="Subdomain policy (sp)"
                  description={
                    <Described badges={<RequirementBadge level="MAY" size="xs" />}>
                      For existing subdomains without a record of their own.
                    </Described>
                  }
                  data={subdomainOptions}
                  value={form.subdomainPolicy}
                  onChange={(event) => update({ subdomainPolicy: event.currentTarget.value as DmarcPolicy })}
                />
                <NativeSelect
                  label="Non-existent subdomain policy (np)"
                  description={
                    <Described badges={<SpecBadge kind="added" explanation={addedTagExplanations.np} />}>
                      For subdomains that do not exist in DNS: mail from them is almost always forged.
                    </Described>
                  }
                  data={[
                    { value: '', label: 'not published: sp applies, else p' },
                    { value: 'none', label: 'none' },
                    { value: 'quarantine', label: 'quarantine' },
                    { value: 'reject', label: 'reject' },
                  ]}
                  value={form.np}
                  onChange={(event) => update({ np: event.currentTarget.value as FormState['np'] })}
                />
                <NumberInput
                  label="Percentage (pct)"
                  description={
                    <Described badges={<RemovedBadge tag="pct" />}>
                      Share of failing mail the policy applies to; 100 is not published.
                    </Described>
                  }
                  min={0}
                  max={100}
                  allowDecimal={false}
                  allowNegative={false}
                  clampBehavior="strict"
                  suffix="%"
                  value={form.percentage}
                  onChange={(value) => update({ percentage: value })}
                  error={errors.percentage}
                />
                <Switch
                  label="Test mode (t=y)"
                  description={
                    <Described badges={<SpecBadge kind="added" explanation={addedTagExplanations.t} />}>
                      Receivers apply one level less to failing mail while you test.
                    </Described>
                  }
                  checked={form.testMode}
                  onChange={(event) => update({ testMode: event.currentTarget.checked })}
                />
              </Stack>
            </Fieldset>

            <Fieldset legend="Alignment">
              <Text size="sm" c="dimmed" mb="xs">
                Relaxed: the domain SPF or DKIM authenticates may be a subdomain of the From domain (the same
                Organizational Domain). Strict: it must be the From domain itself.
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <NativeSelect
                  label="SPF alignment (aspf)"
                  data={alignmentOptions}
                  value={form.aspf}
                  onChange={(event) => update({ aspf: event.currentTarget.value as Alignment })}
                />
                <NativeSelect
                  label="DKIM alignment (adkim)"
                  data={alignmentOptions}
                  value={form.adkim}
                  onChange={(event) => update({ adkim: event.currentTarget.value as Alignment })}
                />
              </SimpleGrid>
            </Fieldset>

            <AddressList
              legend="Aggregate reports (rua)"
              rowLabel="Aggregate report address"
              addLabel="Add aggregate address"
              values={form.rua}
              errors={errors}
              errorKey="reporting.rua"
              badge={<RequirementBadge level="SHOULD" size="xs" />}
              description="Daily summaries of who sends mail as your domain. Blank rows are left out; addresses get mailto:."
              onChange={(rua) => update({ rua })}
            />
            <AddressList
              legend="Failure reports (ruf)"
              rowLabel="Failure report address"
              addLabel="Add failure address"
              values={form.ruf}
              errors={errors}
              errorKey="reporting.ruf"
              badge={<RequirementBadge level="MAY" size="xs" />}
              description="Reports on single failing messages; few receivers send them."
              onChange={(ruf) => update({ ruf })}
            />

            <Fieldset legend="Reporting options">
              <Stack gap="sm">
                <NumberInput
                  label="Report interval in seconds (ri)"
                  description={
                    <Described badges={<RemovedBadge tag="ri" />}>86400 (a day) is not published.</Described>
                  }
                  min={1}
                  max={4294967295}
                  allowDecimal={false}
                  allowNegative={false}
                  value={form.ri}
                  onChange={(value) => update({ ri: value })}
                  error={errors['reportingOptions.ri']}
                />
                <NativeSelect
                  label="Failure report format (rf)"
                  description={
                    <Described badges={<RemovedBadge tag="rf" />}>afrf is not published.</Described>
                  }
                  data={[
                    { value: 'afrf', label: 'afrf (not published)' },
                    { value: 'iodef', label: 'iodef' },
                  ]}
                  value={form.rf}
                  onChange={(event) => update({ rf: event.currentTarget.value as FormState['rf'] })}
                />
                <Radio.Group
                  label="Failure reporting options (fo)"
                  description="When receivers send failure reports; fo=0 is not published. Needs a failure report address."
                  value={form.foWhen}
                  onChange={(value) => update({ foWhen: value as FormState['foWhen'] })}
                >
                  <Stack gap={6} mt={6}>
                    <Radio value="0" label="Report when all mechanisms fail (0)" />
                    <Radio value="1" label="Report when any mechanism fails (1)" />
                  </Stack>
                </Radio.Group>
                <Group gap="lg">
                  <Checkbox
                    label="DKIM failures (d)"
                    checked={form.foDkim}
                    onChange={(event) => update({ foDkim: event.currentTarget.checked })}
                  />
                  <Checkbox
                    label="SPF failures (s)"
                    checked={form.foSpf}
                    onChange={(event) => update({ foSpf: event.currentTarget.checked })}
                  />
                </Group>
              </Stack>
            </Fieldset>

            <Fieldset legend="Public suffix domains">
              <NativeSelect
                label="Public suffix domain (psd)"
                description={
                  <Described badges={<SpecBadge kind="added" explanation={addedTagExplanations.psd} />}>
                    Leave it unpublished unless you run a TLD or another public suffix.
                  </Described>
                }
                data={[
                  { value: 'u', label: 'u: not published' },
                  { value: 'n', label: 'n: this domain is an Organizational Domain' },
                  { value: 'y', label: 'y: this domain is a public suffix' },
                ]}
                value={form.psd}
                onChange={(event) => update({ psd: event.currentTarget.value as FormState['psd'] })}
              />
            </Fieldset>
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
