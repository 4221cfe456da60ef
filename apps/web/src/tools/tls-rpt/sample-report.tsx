import { Button, Group, NativeSelect, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  tlsRptOperations,
  tlsRptPolicyTypes,
  tlsRptSampleBody,
  type TlsRptReportJson,
  type TlsRptSampleBody,
  type TlsRptSampleResultData,
} from '@rfckit/standards';
import type { FormEvent } from 'react';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { CopyBlock } from '../../components/copy-block.tsx';
import { DomainField } from '../../components/domain-field.tsx';
import { GeneratorForm } from '../../components/generator-form.tsx';
import { formErrorKey, useCheckedForm } from '../../components/operation-form.tsx';
import { requestPanelState } from '../../components/request-form.ts';
import { failureMessage } from '../../lib/failure-message.ts';
import { useOperation } from '../../lib/operations.ts';
import { saveFile } from '../../lib/save-file.ts';

type PolicyType = (typeof tlsRptPolicyTypes)[number];

interface SampleValues {
  domain: string;
  source: 'live' | 'entered';
  type: PolicyType;
  mxHosts: string;
  strings: string;
}

const policyTypeLabels: Record<PolicyType, string> = {
  sts: 'MTA-STS (sts)',
  tlsa: 'DANE TLSA (tlsa)',
  'no-policy-found': 'No policy (no-policy-found)',
};

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

function sampleBody(values: SampleValues): TlsRptSampleBody {
  if (values.source === 'live') return { domain: values.domain };
  // the policy lines field is off for no-policy-found: what it still holds is not sent
  const strings = values.type === 'no-policy-found' ? [] : lines(values.strings);
  return { domain: values.domain, policy: { type: values.type, mxHosts: lines(values.mxHosts), strings } };
}

/** The body check, each finding about the entered policy shown on its own field (`policy.mxHosts` on mxHosts). */
function checkSample(values: SampleValues) {
  const checked = tlsRptSampleBody.safeParse(sampleBody(values));
  if (checked.success) return checked;
  const issues = checked.error.issues.map((issue) =>
    issue.path[0] === 'policy' ? { ...issue, path: issue.path.slice(1) } : issue,
  );
  return { success: false, error: { issues } };
}

/** The file name RFC 8460 §5.3 gives a report: sender!policy-domain!begin!end!id.json (times in Unix seconds). */
function reportFileName(report: TlsRptReportJson): string {
  const seconds = (time: string) => Math.floor(Date.parse(time) / 1000);
  const domain = report.policies[0]?.policy['policy-domain'] ?? 'example';
  const range = report['date-range'];
  return `rfckit-sample!${domain}!${seconds(range['start-datetime'])}!${seconds(range['end-datetime'])}!sample.json`;
}

function SampleView({ data }: { data: TlsRptSampleResultData }) {
  const report = JSON.parse(data.report) as TlsRptReportJson;
  return (
    <Stack gap="sm">
      <Text size="sm">{data.policy.note}</Text>
      <Text size="sm" c="dimmed">
        A sample for testing your report handling, not a report from a real sender: 100 successful and 5
        failed sessions on the UTC day before today.
      </Text>
      <CopyBlock
        label="Sample report (JSON)"
        value={data.report}
        copyAriaLabel="Copy the sample report"
        testId="tlsrpt-sample"
      />
      <Group>
        <Button
          variant="default"
          size="xs"
          onClick={() =>
            saveFile(new Blob([data.report], { type: 'application/tlsrpt+json' }), reportFileName(report))
          }
        >
          Download .json
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * A sample aggregate report for the user's domain: its live policy (the server fetches the MTA-STS
 * policy or reads the MX hosts' TLSA records) or one entered here.
 */
export function TlsRptSampleReport() {
  const { form, validated } = useCheckedForm({
    initialValues: { domain: '', source: 'live', type: 'sts', mxHosts: '', strings: '' } as SampleValues,
    check: checkSample,
    fallbackError: 'Failed to build the sample report',
  });
  const sampling = useOperation(tlsRptOperations.sample);
  const values = form.values;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (sampling.isPending) return;
    const body = validated(form.getValues());
    if (body === undefined) {
      sampling.reset();
      return;
    }
    sampling.mutate(body);
  }

  const result = requestPanelState(sampling, {
    pending:
      values.source === 'live' ? `Looking up the policy of ${values.domain.trim()}…` : 'Building the sample…',
    empty: 'Enter a domain and choose Build sample report.',
    errorMessage: (error) => failureMessage(error, 'Failed to build the sample report'),
    success: (data) => ({
      title: `Sample report (${data.policy.type})`,
      children: <SampleView data={data} />,
    }),
  });

  return (
    <GeneratorForm
      formLabel="Sample report builder"
      onSubmit={submit}
      error={form.errors[formErrorKey]}
      submitLabel="Build sample report"
      pendingLabel="Building..."
      pending={sampling.isPending}
      result={result}
      resultLabel="Sample report"
    >
      <DomainField
        description="The policy domain the sample reports on."
        required
        {...form.getInputProps('domain')}
      />
      <Radio.Group
        label="Policy"
        value={values.source}
        onChange={(source) => form.setFieldValue('source', source as SampleValues['source'])}
      >
        <Stack gap="xs" mt="xs">
          <Radio
            value="live"
            label="Look up the live policy"
            description="The server fetches the domain's MTA-STS policy, else reads DNSSEC-validated TLSA records of its MX hosts."
          />
          <Radio
            value="entered"
            label="Enter a policy"
            description="Report on the policy you describe below."
          />
        </Stack>
      </Radio.Group>
      {values.source === 'entered' && (
        <Stack gap="sm">
          <NativeSelect
            label="Policy type"
            data={tlsRptPolicyTypes.map((type) => ({ value: type, label: policyTypeLabels[type] }))}
            {...form.getInputProps('type')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <CodeTextarea
              label="MX hosts"
              description="One per line, at least one; MTA-STS patterns such as *.mail.example.com are allowed."
              required
              placeholder="mx1.example.com"
              minRows={2}
              maxRows={6}
              {...form.getInputProps('mxHosts')}
            />
            <CodeTextarea
              label="Policy lines"
              description={
                values.type === 'tlsa'
                  ? 'The TLSA records, one per line (3 1 1 <sha-256>).'
                  : 'The MTA-STS policy as published, one line each (version, mode, mx, max_age).'
              }
              placeholder={values.type === 'tlsa' ? '3 1 1 …' : 'version: STSv1'}
              minRows={2}
              maxRows={6}
              disabled={values.type === 'no-policy-found'}
              required={values.type !== 'no-policy-found'}
              {...form.getInputProps('strings')}
            />
          </SimpleGrid>
        </Stack>
      )}
    </GeneratorForm>
  );
}
