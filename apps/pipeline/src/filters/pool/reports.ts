/* eslint-disable @typescript-eslint/no-explicit-any -- protocol lines are JSON from the sandbox, checked field by field in reports.ts */
// A locus' report as the pool hands it on. The pool trusts nothing a worker says: a report is
// accepted only for the locus sent at its index, and only with the outputs its filter declared.
import type { FilterError, FilterOutputs, LocusForFilter, LocusReport, LocusStatus } from './types.ts';

/** The report of a locus the filter gave nothing for (not run, crashed, timed out). */
export const emptyReport = (locus: LocusForFilter, status: LocusStatus, error?: FilterError): LocusReport => ({
  locus_id: locus.locus_id,
  status,
  t: 0,
  new_locus_properties: {},
  new_alert_properties: {},
  new_tags: [],
  raised_halt: false,
  stdout: '',
  stderr: '',
  ...(error ? { error } : {}),
});

/**
 * A worker's report line, accepted only with declared, well-typed outputs (`outputs`: what the filter
 * declared when it loaded); printed text is cut at about `outputLimit` characters.
 */
export function checkedReport(outputs: FilterOutputs, outputLimit: number, locus: LocusForFilter, m: any): LocusReport {
  const text = (s: unknown) => (typeof s === 'string' ? s.slice(0, outputLimit + 100) : '');
  const status: LocusStatus = ['ok', 'skipped', 'error', 'timeout'].includes(m.status) ? m.status : 'error';
  const report: LocusReport = {
    ...emptyReport(locus, status),
    t: Number(m.t) || 0,
    stdout: text(m.stdout),
    stderr: text(m.stderr),
    raised_halt: m.raised_halt === true,
  };
  if (m.error) report.error = { type: text(m.error.type), message: text(m.error.message), traceback: text(m.error.traceback) };
  if (m.skip_reason) report.skip_reason = text(m.skip_reason);
  if (m.killed_processes) report.killed_processes = Number(m.killed_processes);
  if (status !== 'ok') return report;
  const typed = (decl: FilterOutputs['locus_properties'], props: unknown, problems: string[]) => {
    const result: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(props && typeof props === 'object' ? props : {})) {
      const type = decl.find((d) => d.name === k)?.type;
      const ok =
        v === null ||
        (type === 'str' && typeof v === 'string') ||
        (type === 'int' && Number.isInteger(v)) ||
        (type === 'float' && typeof v === 'number');
      if (ok) result[k] = v;
      else problems.push(k);
    }
    return result;
  };
  const problems: string[] = [];
  const tags = Array.isArray(m.new_tags) ? m.new_tags : [];
  for (const t of tags) if (!outputs.tags.includes(t)) problems.push(`tag ${t}`);
  const lp = typed(outputs.locus_properties, m.new_locus_properties, problems);
  const ap = typed(outputs.alert_properties, m.new_alert_properties, problems);
  if (problems.length)
    return {
      ...report,
      status: 'error',
      error: { type: 'FilterError', message: `undeclared or mistyped outputs: ${problems.join(', ')}`, traceback: '' },
    };
  return { ...report, new_tags: tags, new_locus_properties: lp, new_alert_properties: ap };
}
