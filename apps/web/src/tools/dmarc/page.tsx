import { findTool } from '@rfckit/standards';

import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

const tool = findTool('dmarc');
if (!tool) throw new Error('The tool registry has no dmarc entry');
const dmarcTool = tool;

/** /tools/dmarc: Information, Generator (in the browser, spec part 1 §7) and Validator (the server's discovery). */
export default function DmarcPage() {
  return (
    <ToolPage
      tool={dmarcTool}
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
    />
  );
}
