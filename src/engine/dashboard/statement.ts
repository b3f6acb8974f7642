/**
 * The period statement the dashboard offers for download: the same one `paybatch report` writes (engine/reports),
 * gathered here so that the dashboard reaches the ledger through this door only.
 */
export { periodStatement, type StatementOptions } from '../reports/index.js';
export type { Lineage, Outcome, PeriodStatement, RowPayment } from '../../reports/period-statement.js';
export type { StatementFormat } from '../../reports/statement-renderer.js';
