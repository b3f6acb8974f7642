import type { Settings } from '../config/settings.js';
import type { PeriodStatement } from '../reports/period-statement.js';
import type { AmountUnit } from '../domain/webhook-event.js';

/** What a statement says of the company paying, from the profile: the payer line, its account (OFX), how its events' balances read. */
export interface StatementCompany {
  readonly payer: PeriodStatement['payer'];
  readonly account: PeriodStatement['account'];
  readonly eventReading: { readonly amountUnit: AmountUnit };
}

export function statementCompany(s: Settings): StatementCompany {
  return {
    payer: { name: s.companyName ?? null, document: s.companyDocument ?? null },
    // OFX names one account: all three parts, or none.
    account: s.companyBank && s.companyBranch && s.companyAccount ? { bank: s.companyBank, branch: s.companyBranch, account: s.companyAccount } : null,
    eventReading: { amountUnit: s.eventAmountUnit ?? 'cents' },
  };
}
