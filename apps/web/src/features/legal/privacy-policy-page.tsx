import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';

import { browserStorageRows, Bullets, LegalPage, StorageTable } from './legal-page.tsx';
import { PageSection } from '../../components/page-section.tsx';

const configuredContact = import.meta.env.VITE_PRIVACY_CONTACT;

export default function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro="This policy explains what rfckit stores about you, where, why and for how long. rfckit is run by the organisation that operates this installation (the operator); the operator is responsible for the data described here."
    >
      <PageSection title="In your browser">
        <Text>
          rfckit keeps a few small items on your device. Nothing here is shared with anyone other than the
          rfckit API, and only the access token and the refresh cookie ever leave your browser.
        </Text>
        <StorageTable caption="What rfckit stores on your device" rows={browserStorageRows} />
        <Text>
          rfckit sets no analytics, advertising or marketing cookies and loads no third-party scripts, fonts
          or images. The{' '}
          <Anchor component={Link} to="/cookie-policy" underline="always">
            cookie policy
          </Anchor>{' '}
          has the details.
        </Text>
      </PageSection>

      <PageSection title="On the rfckit server">
        <Bullets
          items={[
            <>
              <strong>Account:</strong> your email address, name and the profile details you choose to add
              (company, phone). Your password is stored only as an argon2id hash, never in readable form.
            </>,
            <>
              <strong>Organisation:</strong> its name, domain, address, phone, administrator email and
              description, its members with their roles, and pending invitations.
            </>,
            <>
              <strong>Sessions:</strong> a hashed refresh token for each device you are signed in on, with its
              expiry, so sessions can be renewed and revoked.
            </>,
            <>
              <strong>Audit log:</strong> sign-in and sign-out events and the changes made in your
              organisation (create, update, delete), each with the time, the user and the IP address the
              request came from. Your organisation's admins see the whole log on the activity page; members
              see their own entries.
            </>,
            <>
              <strong>Billing</strong>, if your organisation subscribes: the plan, invoices, and the brand,
              last four digits and expiry date of a payment card. The full card number and security code are
              never stored.
            </>,
            <>
              <strong>API keys</strong> your organisation's admins create: the name, the first characters and
              a SHA-256 hash of each key (never the key itself), who created it, and when it was last used.
            </>,
          ]}
        />
      </PageSection>

      <PageSection title="The records you check">
        <Text>
          DNS records, keys, headers, domains and other input you submit to a tool are processed to answer
          that request and are not stored. When a check needs live data, the rfckit server looks up DNS or
          connects to the host you named; those servers see a request coming from the rfckit server, not from
          you.
        </Text>
      </PageSection>

      <PageSection title="Server logs">
        <Text>
          Each request to the API is logged with a request id, the time, the method and path, the response
          status and the client IP address. The operator uses these logs to run the service, investigate
          faults, enforce rate limits and block abuse. Request bodies, and so the records you check, are not
          logged.
        </Text>
      </PageSection>

      <PageSection title="Why, and who else sees it">
        <Bullets
          items={[
            'Account, organisation, session and billing data are needed to provide the service you signed up for.',
            'The audit log and server logs protect your account and the service against misuse.',
            'Your data is not sold and not shared with advertisers. Account emails (verification, password reset, invitations) are sent through the operator’s mail server.',
          ]}
        />
      </PageSection>

      <PageSection title="Your rights">
        <Bullets
          items={[
            'Access: your profile page and your organisation’s activity page show what is stored about you; you can also ask the operator for a copy.',
            'Correction: edit your profile and organisation details yourself, or ask the operator.',
            'Deletion: ask the operator to delete your account. Sessions and account data are removed; audit entries about past actions may be kept for as long as they are needed for security.',
            'Objection and complaint: you may object to processing and complain to your data-protection authority.',
            'In your browser: change your cookie choice with Cookie Settings in the footer, and clear local storage and cookies in your browser settings at any time.',
          ]}
        />
      </PageSection>

      <PageSection title="Contact">
        {configuredContact ? (
          <Text>
            Write to{' '}
            <Anchor href={`mailto:${configuredContact}`} underline="always">
              {configuredContact}
            </Anchor>{' '}
            for any privacy question or request.
          </Text>
        ) : (
          <Text>
            For any privacy question or request, contact the operator of this rfckit installation: the
            organisation that gave you access to it.
          </Text>
        )}
      </PageSection>
    </LegalPage>
  );
}
