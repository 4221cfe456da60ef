import { findTool } from '@rfckit/standards';

import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { TestTab } from './test-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

const tool = findTool('spf');
if (!tool) throw new Error('The tool registry has no spf entry');
const spfTool = tool;

/** /tools/spf: Information, Test (check_host for an IP, sender and HELO), Generator and Validator. */
export default function SpfPage() {
  return (
    <ToolPage
      tool={spfTool}
      information={<InformationTab />}
      extraTabs={[{ value: 'test', label: 'Test', panel: <TestTab /> }]}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
    />
  );
}
