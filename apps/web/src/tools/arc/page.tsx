import { findTool } from '@rfckit/standards';

import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

const tool = findTool('arc');
if (!tool) throw new Error('The tool registry has no arc entry');
const arcTool = tool;

/** /tools/arc: Information, Generator (live preview, sealing) and Validator (spec part 2). */
export default function ArcPage() {
  return (
    <ToolPage
      tool={arcTool}
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
    />
  );
}
