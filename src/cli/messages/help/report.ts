import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch report`. */
export interface ReportHelp {
  readonly description: string;
  readonly batch: string;
  readonly format: string;
  readonly out: string;
  readonly zip: string;
  readonly force: string;
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
    force: 'replace a file of the same name (default: keep it and write <name>-2, -3, …)',
    examples: `
The file is <profile>-batch-<id>-<batch name>-report.<format> (or .zip), private to you (mode 0600), in the
profile's language: Portuguese ("Extrato consolidado", DD/MM/AAAA) or English; times are São Paulo's. An
existing file is never replaced (without --force): the next free name is written, and said.

Examples:
  paybatch report 3                       # default-batch-3-folha-novembro-report.csv here
  paybatch report 3 --format xlsx --out ~/fechamento
  paybatch report 3 --format pdf --zip    # the statement and every receipt in one .zip`,
  },
  'pt-BR': {
    description: 'os pagamentos de um lote para a contabilidade: uma linha para cada um e totais por situação, em CSV, XLSX ou extrato em PDF',
    batch: '#id local ou id no provedor',
    format: 'csv, xlsx ou pdf',
    out: 'pasta onde escrever (padrão: a atual)',
    zip: 'um zip com o relatório e todos os comprovantes do lote',
    force: 'substitui um arquivo de mesmo nome (padrão: mantém o existente e grava <nome>-2, -3, …)',
    examples: `
O arquivo é <perfil>-batch-<id>-<nome do lote>-report.<format> (ou .zip), acessível só a você (modo 0600),
no idioma do perfil: português ("Extrato consolidado", DD/MM/AAAA) ou inglês; os horários são os de São Paulo.
Um arquivo existente nunca é substituído (sem --force): o próximo nome livre é gravado, e dito.

Exemplos:
  paybatch report 3                       # default-batch-3-folha-novembro-report.csv aqui
  paybatch report 3 --format xlsx --out ~/fechamento
  paybatch report 3 --format pdf --zip    # o extrato e todos os comprovantes em um .zip`,
  },
};
