import { ToolPage } from '../../components/tool-page.tsx';
import { InformationTab } from './information-tab.tsx';
import { InspectorTab } from './inspector-tab.tsx';

/** /tools/smtp-session-inspector: what an SMTP session shows, and a live session with a mail server. */
export default function SmtpSessionInspectorPage() {
  return (
    <ToolPage
      id="smtp-session-inspector"
      information={<InformationTab />}
      extraTabs={[{ value: 'inspector', label: 'Inspector', panel: <InspectorTab /> }]}
    />
  );
}
