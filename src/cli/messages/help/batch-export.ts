import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch batch export`. */
export interface BatchExportHelp {
  readonly description: string;
  readonly id: string;
  readonly status: string;
  readonly format: string;
  /** What the sheet holds, and the examples. */
  readonly examples: string;
}

export const batchExportHelp: Readonly<Record<Locale, BatchExportHelp>> = {
  en: {
    description: "write the rows of a batch that failed or were returned for good as a sheet to fix and import, or a remittance's batch as a CNAB 240 return file",
    id: 'local #id or provider id',
    status: 'which rows: failed, returned (repeat or separate by commas; default: both)',
    format: 'csv (default): the sheet to fix; cnab240-retorno: the return file of a batch imported from a CNAB 240 remittance, for the ERP',
    examples: `
The sheet has the import's columns (Portuguese or English, as the locale) and a reason column, and leaves out rows
already paid again by 'batch retry'. Its identifiers are left empty: the fixed sheet is a new import.

The return file is the remittance's own lines in its bank's layout, each title with its occurrence code (00 paid,
BD accepted and not yet paid, a rejection code otherwise), the date and amount paid, and a segment Z with the Pix
end-to-end id; a title paid by a retry counts as paid. The daemon writes it by itself with the cnabReturnDir setting.

Examples:
  paybatch batch export 3 --status failed > corrigir.csv
  paybatch import corrigir.csv --start
  paybatch batch export 4 --format cnab240-retorno > RET0001.ret`,
  },
  'pt-BR': {
    description: 'escreve como planilha, para corrigir e importar, as linhas de um lote que falharam ou foram devolvidas em definitivo, ou o arquivo retorno CNAB 240 do lote de uma remessa',
    id: '#id local ou id no provedor',
    status: 'quais linhas: failed, returned (pode repetir a opção ou separar por vírgulas; padrão: as duas)',
    format: 'csv (padrão): a planilha a corrigir; cnab240-retorno: o arquivo retorno de um lote importado de uma remessa CNAB 240, para o ERP',
    examples: `
A planilha tem as colunas da importação (em português ou inglês, conforme o idioma) e uma coluna de motivo, e deixa
de fora as linhas já pagas de novo por 'batch retry'. Os identificadores ficam vazios: a planilha corrigida é uma
nova importação.

O arquivo retorno são as linhas da própria remessa, no layout do banco, cada título com seu código de ocorrência
(00 pago, BD aceito e ainda não pago, um código de rejeição nos outros casos), a data e o valor pagos, e um segmento
Z com o end-to-end id do Pix; um título pago por uma nova tentativa conta como pago. O daemon o grava sozinho com a
configuração cnabReturnDir.

Exemplos:
  paybatch batch export 3 --status failed > corrigir.csv
  paybatch import corrigir.csv --start
  paybatch batch export 4 --format cnab240-retorno > RET0001.ret`,
  },
};
