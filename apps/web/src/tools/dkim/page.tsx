import { findTool } from '@rfckit/standards';

import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

const tool = findTool('dkim');
if (!tool) throw new Error('The tool registry has no dkim entry');
const dkimTool = tool;

/** /tools/dkim: Information, Generator and Validator (spec part 1 §2). */
export default function DkimPage() {
  return (
    <ToolPage
      tool={dkimTool}
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
    />
  );
}
