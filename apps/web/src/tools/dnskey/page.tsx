import { findTool } from '@rfckit/standards';

import { ToolPage } from '../../components/tool-page.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

const tool = findTool('dnskey');
if (!tool) throw new Error('The tool registry has no dnskey entry');
const dnskeyTool = tool;

/** /tools/dnskey: the spec's DNSKEY tool has a validator and an information tab, no generator. */
export default function DnskeyPage() {
  return <ToolPage tool={dnskeyTool} information={<InformationTab />} validator={<ValidatorTab />} />;
}
