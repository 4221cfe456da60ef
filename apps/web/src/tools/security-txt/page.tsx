import { findTool } from '@rfckit/standards';

import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

const tool = findTool('security-txt');
if (!tool) throw new Error('The tool registry has no security-txt entry');
const securityTxtTool = tool;

/** /tools/security-txt: Information, Generator and Validator (spec part 2 §2). */
export default function SecurityTxtPage() {
  return (
    <ToolPage
      tool={securityTxtTool}
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
    />
  );
}
