import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/** /tools/dane: Information, the TLSA Generator (pasted or fetched chain) and the Validator. */
export default function DanePage() {
  return (
    <ToolPage
      id="dane"
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
    />
  );
}
