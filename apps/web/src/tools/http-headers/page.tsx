import { findTool } from '@rfckit/standards';

import { ToolPage } from '../../components/tool-page.tsx';
import { AnalyserTab } from './analyser-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

const tool = findTool('http-headers');
if (!tool) throw new Error('The tool registry has no http-headers entry');
const httpHeadersTool = tool;

/** /tools/http-headers: Information, Analyser (fetch and grade a site), Validator (grade pasted headers). */
export default function HttpHeadersPage() {
  return (
    <ToolPage
      tool={httpHeadersTool}
      information={<InformationTab />}
      extraTabs={[{ value: 'analyser', label: 'Analyser', panel: <AnalyserTab /> }]}
      validator={<ValidatorTab />}
    />
  );
}
