import { describe, expect, it } from 'vitest';
import { tlsRptSampleBody, tlsRptSamplePolicyMessages } from './schema.ts';

const messages = (policy: unknown) => {
  const checked = tlsRptSampleBody.safeParse({ domain: 'example.com', policy });
  return checked.success ? [] : checked.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

describe('tlsRptSampleBody with an entered policy', () => {
  it.each([
    [
      { type: 'tlsa', mxHosts: ['mx.example.com'] },
      [['policy.strings', tlsRptSamplePolicyMessages.tlsaRecords]],
    ],
    [
      { type: 'sts', strings: ['  '], mxHosts: ['mx.example.com'] },
      [['policy.strings', tlsRptSamplePolicyMessages.stsLines]],
    ],
    [{ type: 'tlsa', strings: ['3 1 1 ab'] }, [['policy.mxHosts', tlsRptSamplePolicyMessages.mxHosts]]],
    [
      { type: 'no-policy-found', strings: ['version: STSv1'], mxHosts: [' '] },
      [
        ['policy.strings', tlsRptSamplePolicyMessages.noPolicyLines],
        ['policy.mxHosts', tlsRptSamplePolicyMessages.mxHosts],
      ],
    ],
  ])('refuses %j: nothing is made up for it', (policy, expected) => {
    expect(messages(policy)).toEqual(expected);
  });

  it.each([
    { type: 'tlsa', strings: ['3 1 1 ab'], mxHosts: ['mx.example.com'] },
    { type: 'sts', strings: ['version: STSv1', 'mode: enforce'], mxHosts: ['*.example.com'] },
    { type: 'no-policy-found', mxHosts: ['mx.example.com'] },
  ])('takes %j', (policy) => {
    expect(messages(policy)).toEqual([]);
  });

  it('takes no policy at all: the server looks it up', () => {
    expect(tlsRptSampleBody.safeParse({ domain: 'example.com' }).success).toBe(true);
  });
});
