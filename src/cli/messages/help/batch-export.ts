import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch batch export`. */
export interface BatchExportHelp {
  readonly description: string;
  readonly id: string;
  readonly status: string;
  /** What the sheet holds, and the examples. */
  readonly examples: string;
}

export const batchExportHelp: Readonly<Record<Locale, BatchExportHelp>> = {
  en: {
    description: 'write the rows of a batch that failed or were returned for good as a sheet to fix and import',
    id: 'local #id or provider id',
    status: 'which rows: failed, returned (repeat or separate by commas; default: both)',
    examples: `
The sheet has the import's columns (Portuguese or English, as the locale) and a reason column, and leaves out rows
already paid again by 'batch retry'. Its identifiers are left empty: the fixed sheet is a new import.

Examples:
  paybatch batch export 3 --status failed > corrigir.csv
  paybatch import corrigir.csv --start`,
  },
  'pt-BR': {
    description: 'escreve como planilha, para corrigir e importar, as linhas de um lote que falharam ou foram devolvidas em definitivo',
    id: '#id local ou id no provedor',
    status: 'quais linhas: failed, returned (pode repetir a opção ou separar por vírgulas; padrão: as duas)',
    examples: `
A planilha tem as colunas da importação (em português ou inglês, conforme o idioma) e uma coluna de motivo, e deixa
de fora as linhas já pagas de novo por 'batch retry'. Os identificadores ficam vazios: a planilha corrigida é uma
nova importação.

Exemplos:
  paybatch batch export 3 --status failed > corrigir.csv
  paybatch import corrigir.csv --start`,
  },
};
