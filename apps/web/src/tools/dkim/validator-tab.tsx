import { RecordValidator } from './record-validator.tsx';

/** The Validator tab: one component per validator mode; record mode checks a pasted key record. */
export function ValidatorTab() {
  return <RecordValidator />;
}
