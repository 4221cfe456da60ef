import { ToolPage } from '../../components/tool-page.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/** /tools/dnskey: the spec's DNSKEY tool has a validator and an information tab, no generator. */
export default function DnskeyPage() {
  return <ToolPage id="dnskey" information={<InformationTab />} validator={<ValidatorTab />} />;
}
