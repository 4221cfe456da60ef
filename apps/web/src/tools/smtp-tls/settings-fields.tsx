import { Checkbox, NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { mailServices, smtpTlsServiceTypes, type SmtpTlsServiceType } from '@rfckit/standards';

import { DomainField } from '../../components/domain-field.tsx';

/** The settings both the generator and the validator take (spec part 2 §3), as form text. */
export interface MailSettingsValues {
  serverHostname: string;
  emailDomain: string;
  serviceType: string;
  port: string;
  [field: string]: string;
}

export const initialMailSettings = {
  serverHostname: '',
  emailDomain: '',
  serviceType: 'smtp',
  port: String(mailServices.smtp.port),
};

const serviceOptions = smtpTlsServiceTypes.map((value) => ({
  value,
  label: `${value}: ${mailServices[value].label} (${mailServices[value].port})`,
}));

/** The settings as body fields: the port only when typed. */
export function mailSettingsBody(values: MailSettingsValues) {
  return {
    serverHostname: values.serverHostname,
    emailDomain: values.emailDomain,
    serviceType: values.serviceType as SmtpTlsServiceType,
    ...(values.port.trim() === '' ? {} : { port: Number(values.port.trim()) }),
  };
}

/** A yes/no setting kept as form text ('yes' or ''), so that every field of the form is a string. */
export function FlagField<V extends MailSettingsValues>({
  form,
  field,
  label,
  description,
}: {
  form: UseFormReturnType<V>;
  field: keyof V & string;
  label: string;
  description?: string;
}) {
  return (
    <Checkbox
      label={label}
      description={description}
      checked={form.getValues()[field] === 'yes'}
      onChange={(event) =>
        form.setValues({ [field]: event.currentTarget.checked ? 'yes' : '' } as Partial<V>)
      }
    />
  );
}

/** Server hostname, email domain, service type and port. */
export function MailSettingsFields<V extends MailSettingsValues>({ form }: { form: UseFormReturnType<V> }) {
  const values = form.getValues();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <DomainField
        label="Server hostname"
        placeholder="mail.example.com"
        description="The name clients connect to"
        withAsterisk
        {...form.getInputProps('serverHostname')}
      />
      <DomainField
        label="Email domain"
        placeholder="example.com"
        description="The domain of the users’ addresses"
        withAsterisk
        {...form.getInputProps('emailDomain')}
      />
      <NativeSelect
        label="Service type"
        data={serviceOptions}
        {...form.getInputProps('serviceType')}
        onChange={(event) => {
          const next = event.currentTarget.value as SmtpTlsServiceType;
          const current = values.serviceType as SmtpTlsServiceType;
          // the port follows the service until one is typed
          const port =
            values.port === String(mailServices[current].port)
              ? String(mailServices[next].port)
              : values.port;
          form.setValues({ serviceType: next, port } as Partial<V>);
        }}
      />
      <TextInput
        label="Port"
        inputMode="numeric"
        autoComplete="off"
        description="587 or 465 for submission; 25 is relay, outside RFC 7817"
        {...form.getInputProps('port')}
      />
    </SimpleGrid>
  );
}
