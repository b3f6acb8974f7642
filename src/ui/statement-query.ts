import type { StatementFormat } from '../engine/dashboard/index.js';

export const STATEMENT_FORMATS: readonly StatementFormat[] = ['pdf', 'xlsx', 'csv', 'ofx'];

/** What is wrong with a statement's address; the page words each code (assets/words.js), scripts read `message`. */
export type StatementQueryProblem =
  | { readonly code: 'statement_format_invalid'; readonly format: string }
  | { readonly code: 'statement_period_missing' }
  | { readonly code: 'statement_period_twice' }
  | { readonly code: 'statement_month_invalid'; readonly month: string }
  | { readonly code: 'statement_day_invalid'; readonly field: 'from' | 'to'; readonly day: string }
  | { readonly code: 'statement_period_reversed'; readonly from: string; readonly to: string };

export interface StatementQuery {
  readonly format: StatementFormat;
  /** First and last São Paulo day, inclusive. */
  readonly from: string;
  readonly to: string;
  /** The period in the file's name: `2026-11`, or `2026-11-01-to-2026-11-15`. */
  readonly label: string;
}

/**
 * `format=pdf|xlsx|csv|ofx` with `month=YYYY-MM`, or with `from=YYYY-MM-DD&to=YYYY-MM-DD`: a period of whole São Paulo
 * days, as `paybatch report --month` and `--from/--to` take it.
 */
export function statementQuery(q: Readonly<Record<string, string | undefined>>): { ok: true; query: StatementQuery } | { ok: false; problem: StatementQueryProblem } {
  const fail = (problem: StatementQueryProblem) => ({ ok: false as const, problem });
  const format = q.format ?? '';
  if (!(STATEMENT_FORMATS as readonly string[]).includes(format)) return fail({ code: 'statement_format_invalid', format: format.slice(0, 20) });
  const { month, from, to } = q;
  if (month !== undefined && (from !== undefined || to !== undefined)) return fail({ code: 'statement_period_twice' });
  if (month !== undefined) {
    const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
    if (!m) return fail({ code: 'statement_month_invalid', month: month.slice(0, 20) });
    const last = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
    return { ok: true, query: { format: format as StatementFormat, from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}`, label: month } };
  }
  if (from === undefined || to === undefined) return fail({ code: 'statement_period_missing' });
  for (const [field, day] of [['from', from], ['to', to]] as const) {
    if (!isDay(day)) return fail({ code: 'statement_day_invalid', field, day: day.slice(0, 20) });
  }
  if (from > to) return fail({ code: 'statement_period_reversed', from, to });
  return { ok: true, query: { format: format as StatementFormat, from, to, label: `${from}-to-${to}` } };
}

/** A calendar day that exists: `2026-02-30` does not. */
function isDay(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** The English `message` of a problem, beside its code in the API's answer. */
export function statementProblemMessage(p: StatementQueryProblem): string {
  switch (p.code) {
    case 'statement_format_invalid':
      return `format must be pdf, xlsx, csv or ofx, not "${p.format}".`;
    case 'statement_period_missing':
      return 'Give the period: month=YYYY-MM, or from=YYYY-MM-DD and to=YYYY-MM-DD.';
    case 'statement_period_twice':
      return 'Give month, or from and to, not both.';
    case 'statement_month_invalid':
      return `month must be a month as YYYY-MM (e.g. 2026-11), not "${p.month}".`;
    case 'statement_day_invalid':
      return `${p.field} must be a day as YYYY-MM-DD (e.g. 2026-11-01), not "${p.day}".`;
    case 'statement_period_reversed':
      return `from (${p.from}) is after to (${p.to}).`;
  }
}
