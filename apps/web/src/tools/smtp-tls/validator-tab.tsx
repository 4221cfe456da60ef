import { SegmentedControl, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { smtpTlsOperations, type SmtpTlsValidateBody } from '@rfckit/standards';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { DomainField } from '../../components/domain-field.tsx';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { monospaceInput, submitOnCtrlEnter } from '../../components/request-form.ts';
import { certificateFetchAdvice, failureMessage } from '../../lib/failure-message.ts';
import { FlagField, initialMailSettings, MailSettingsFields, mailSettingsBody } from './settings-fields.tsx';
import { ValidationView, validationTitle } from './validation-result.tsx';

/** Spec part 2 §8: the validator's failure text. */
export const validateFailure = (error: Error) =>
  `Failed to validate TLS compliance: ${failureMessage(error, 'API request failed')}`;

const sources = [
  { value: 'certificateInfo', label: 'Certificate names' },
  { value: 'pem', label: 'Paste PEM' },
  { value: 'live', label: 'Fetch live' },
] as const;
type Source = (typeof sources)[number]['value'];

const initialValues = {
  ...initialMailSettings,
  includeSRV: '',
  source: 'certificateInfo' as string,
  dnsIds: '',
  srvIds: '',
  commonName: '',
  pem: '',
  liveHost: '',
};
type Values = typeof initialValues;

/** One name a line (commas too), blanks dropped. */
const namesOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((name) => name.trim())
    .filter((name) => name !== '');

function sourceBody(values: Values): Partial<SmtpTlsValidateBody> {
  switch (values.source as Source) {
    case 'pem':
      return { pem: values.pem };
    case 'live':
      // the connection uses the Port field above (the service's port unless another is typed)
      return { live: values.liveHost.trim() === '' ? {} : { host: values.liveHost } };
    default:
      return {
        certificateInfo: {
          dnsIds: namesOf(values.dnsIds),
          srvIds: namesOf(values.srvIds),
          commonName: values.commonName.trim() === '' ? null : values.commonName.trim(),
        },
      };
  }
}

/** Checks a certificate, given by its names, as PEM or fetched live, against the RFC 7817 identity rules. */
export function ValidatorTab() {
  const { form, request, onSubmit } = useOperationForm({
    operation: smtpTlsOperations.validate,
    initialValues,
    toBody: (values) => ({
      ...mailSettingsBody(values),
      includeSRV: values.includeSRV === 'yes',
      ...sourceBody(values),
    }),
    errorField: 'serverHostname',
    fallbackError: 'Server hostname is required',
  });
  const source = form.getValues().source as Source;
  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="Validate a mail server certificate"
      resultLabel="Validation result"
      submitLabel="Validate"
      pendingLabel="Validating..."
      panel={{
        pending: source === 'live' ? 'Connecting to the server and reading its certificate…' : 'Validating…',
        empty: 'Enter the settings and the certificate to check it against RFC 7817.',
        errorMessage: validateFailure,
        couldNotCheckAdvice: certificateFetchAdvice,
        success: (data) => ({
          title: validationTitle(data),
          tone: data.status === 'success' ? 'positive' : data.status === 'error' ? 'negative' : undefined,
          children: <ValidationView result={data} />,
        }),
      }}
    >
      <MailSettingsFields form={form} />
      <FlagField
        form={form}
        field="includeSRV"
        label="The client finds the server through SRV records (RFC 6186)"
        description="Then the email domain is a reference identifier too, matched against SRV-IDs"
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="smtp-tls-source-label">
          Certificate
        </Text>
        <SegmentedControl
          aria-labelledby="smtp-tls-source-label"
          data={sources.map((item) => ({ value: item.value, label: item.label }))}
          {...form.getInputProps('source')}
          style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
          styles={{ label: { whiteSpace: 'normal' } }}
        />
      </Stack>
      {source === 'certificateInfo' && (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Textarea
            label="DNS-IDs"
            description="subjectAltName DNS names, one a line"
            placeholder={'mail.example.com\n*.example.com'}
            autosize
            minRows={2}
            styles={monospaceInput}
            {...form.getInputProps('dnsIds')}
          />
          <Textarea
            label="SRV-IDs"
            description="SRVName entries, one a line"
            placeholder="_imaps.example.com"
            autosize
            minRows={2}
            styles={monospaceInput}
            {...form.getInputProps('srvIds')}
          />
          <TextInput
            label="Common name (CN)"
            placeholder="mail.example.com"
            styles={monospaceInput}
            {...form.getInputProps('commonName')}
          />
        </SimpleGrid>
      )}
      {source === 'pem' && (
        <CodeTextarea
          label="Server certificate (PEM)"
          description="-----BEGIN CERTIFICATE----- … the server certificate first; Ctrl+Enter validates"
          minRows={6}
          onKeyDown={submitOnCtrlEnter}
          {...form.getInputProps('pem')}
        />
      )}
      {source === 'live' && (
        <DomainField
          label="Connect to"
          placeholder="The server hostname"
          description="Blank: the server hostname above, on the Port above. STARTTLS on 587, 143, 110 and 4190; implicit TLS on 465, 993 and 995"
          {...form.getInputProps('liveHost')}
        />
      )}
    </OperationForm>
  );
}
