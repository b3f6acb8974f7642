import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch report`. */
export interface ReportHelp {
  readonly description: string;
  readonly batch: string;
  readonly format: string;
  readonly out: string;
  readonly zip: string;
  /** The file written, and the examples. */
  readonly examples: string;
}

export const reportHelp: Readonly<Record<Locale, ReportHelp>> = {
  en: {
    description: "a batch's payments for accounting: one line each and totals by status, as CSV, XLSX or a PDF statement",
    batch: 'local #id or provider id',
    format: 'csv, xlsx or pdf',
    out: 'folder to write to (default: the current one)',
    zip: 'one zip with the report and every receipt of the batch',
    examples: `
The file is batch-<id>-report.<format> (or .zip), private to you (mode 0600), in the profile's language:
Portuguese ("Extrato consolidado", DD/MM/AAAA) or English; times are São Paulo's.

Examples:
  paybatch report 3                       # batch-3-report.csv here
  paybatch report 3 --format xlsx --out ~/fechamento
  paybatch report 3 --format pdf --zip    # the statement and every receipt in batch-3-report.zip`,
  },
  'pt-BR': {
    description: 'os pagamentos de um lote para a contabilidade: uma linha para cada um e totais por situação, em CSV, XLSX ou extrato em PDF',
    batch: '#id local ou id no provedor',
    format: 'csv, xlsx ou pdf',
    out: 'pasta onde escrever (padrão: a atual)',
    zip: 'um zip com o relatório e todos os comprovantes do lote',
    examples: `
O arquivo é batch-<id>-report.<format> (ou .zip), acessível só a você (modo 0600), no idioma do perfil:
português ("Extrato consolidado", DD/MM/AAAA) ou inglês; os horários são os de São Paulo.

Exemplos:
  paybatch report 3                       # batch-3-report.csv aqui
  paybatch report 3 --format xlsx --out ~/fechamento
  paybatch report 3 --format pdf --zip    # o extrato e todos os comprovantes em batch-3-report.zip`,
  },
};
