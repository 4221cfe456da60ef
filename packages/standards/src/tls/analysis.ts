// The answer of the TLS tester: a scan report and its grade, with the spec's short fields
// (versions and their suites, vulnerabilities and recommendations as sentences, score, grade).
import { gradeFactsOf } from './grade-facts.ts';
import { gradeTls } from './grade.ts';
import type { TlsScanReport } from './scan-report.ts';
import type { TlsAnalysis } from './schema.ts';

export type HstsCheck = TlsAnalysis['hsts'];

/** Grades a scan and words its findings; `hsts` is what the site's HTTPS answer said, when read. */
export function tlsAnalysis(report: TlsScanReport, hsts: HstsCheck): TlsAnalysis {
  const hstsStatus = report.starttls !== undefined ? 'not-applicable' : hsts.checked ? 'read' : 'unread';
  const facts = gradeFactsOf(report, hsts.maxAge, hstsStatus);
  const grading = facts.ok ? gradeTls(facts.facts) : null;
  const vulnerable = report.vulnerabilities.filter((finding) => finding.status === 'vulnerable');
  const recommendations = new Set<string>();
  for (const finding of vulnerable) recommendations.add(finding.fix);
  for (const cap of grading?.caps ?? []) recommendations.add(cap.fix);
  if (report.incomplete)
    recommendations.add(
      'The scan did not learn everything (see its notes): run it again, at a quieter time for the server, for a complete result',
    );
  return {
    supportedVersions: report.versions
      .filter((version) => version.supported)
      .map((version) => ({ version: version.version, ciphers: version.suites.map((suite) => suite.name) })),
    vulnerabilities: vulnerable.map((finding) => `${finding.title}: ${finding.evidence}`),
    recommendations: [...recommendations],
    score: grading?.score ?? null,
    grade: grading?.grade ?? null,
    report,
    grading,
    ...(facts.ok ? {} : { ungradedReason: facts.reason }),
    hsts,
  };
}
