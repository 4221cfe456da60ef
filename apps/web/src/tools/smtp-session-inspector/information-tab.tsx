import { Stack, Text } from '@mantine/core';

import { GuidanceItem, GuidanceList } from '../../components/guidance-list.tsx';
import { PageSection } from '../../components/page-section.tsx';

export function InformationTab() {
  return (
    <Stack gap="xl">
      <PageSection title="What the inspector does">
        <Text>
          It finds the mail hosts of a domain the way a sending server does (MX records by preference, the
          domain itself when there are none), then talks to the host you choose: it reads the greeting, sends
          EHLO, upgrades the connection with STARTTLS (ports 25 and 587) or starts with TLS (port 465), sends
          EHLO again and says QUIT. It never sends MAIL FROM or DATA, so nothing is delivered. Every step is
          timed and shown as it happens.
        </Text>
        <Text>
          Time limits: connect 10 s, greeting 30 s, each reply 30 s, TLS handshake 15 s, the whole session 90
          s. RFC 5321 §4.5.3.2 lets a sender wait 5 minutes for a greeting; we stop sooner and say so.
        </Text>
      </PageSection>

      <PageSection title="What a mail server should do">
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 5321 §4.2, §4.3.2">
            Greet with 220 and its name. 421 and other 4xx greetings turn senders away for now (greylisting
            and overload look like this); 554 refuses the connection.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 5321 §3.2, §4.1.1.1">
            Answer EHLO with 250 and the extensions it supports: SIZE (RFC 1870), PIPELINING (RFC 2920),
            8BITMIME (RFC 6152), SMTPUTF8 (RFC 6531), REQUIRETLS (RFC 8689), STARTTLS (RFC 3207).
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 3207; RFC 8461; RFC 7672">
            Offer STARTTLS on port 25, with a certificate for the MX name, so that MTA-STS and DANE can
            require it.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 3207 §4.2">
            Advertise STARTTLS again after TLS has started. The client forgets everything said before TLS and
            asks with EHLO again; offering AUTH only then is expected.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 8314 §3.3, §4.1">
            On the submission ports (587 with STARTTLS, 465 with TLS from the first byte) present a
            certificate mail clients can validate.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 8996">
            Negotiate TLS 1.0 or 1.1.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 2181 §10.3; RFC 5321 §5.1">
            Point an MX record at an alias (CNAME). A domain that receives no mail publishes a null MX, "0 ."
            (RFC 7505).
          </GuidanceItem>
        </GuidanceList>
      </PageSection>
    </Stack>
  );
}
