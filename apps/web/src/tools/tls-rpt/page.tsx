import { Stack } from '@mantine/core';

import { PageSection } from '../../components/page-section.tsx';
import { ToolPage } from '../../components/tool-page.tsx';
import { TlsRptGenerator } from './generator.tsx';
import { TlsRptInformation } from './information.tsx';
import { TlsRptReportViewer } from './report-viewer.tsx';
import { TlsRptSampleReport } from './sample-report.tsx';
import { TlsRptValidator } from './validator.tsx';

/**
 * /tools/tls-rpt: the spec's single page (no tabs): generator, validator, sample report, the report
 * viewer that reads real reports, and the information panel.
 */
export default function TlsRptPage() {
  return (
    <ToolPage
      id="tls-rpt"
      information={
        <Stack gap={48}>
          <PageSection title="Record generator">
            <TlsRptGenerator />
          </PageSection>
          <PageSection title="Record validator">
            <TlsRptValidator />
          </PageSection>
          <PageSection title="Sample report">
            <TlsRptSampleReport />
          </PageSection>
          <PageSection title="Report viewer">
            <TlsRptReportViewer />
          </PageSection>
          <PageSection title="About TLS-RPT">
            <TlsRptInformation />
          </PageSection>
        </Stack>
      }
    />
  );
}
