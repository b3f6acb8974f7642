import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch import` and `paybatch template`. */
export interface ImportHelp {
  readonly import: {
    readonly description: string;
    readonly sheet: string;
    readonly name: string;
    readonly check: string;
    readonly dryRun: string;
    readonly start: string;
    readonly yes: string;
    readonly skipInvalid: string;
    readonly allowDuplicates: string;
    /** `--sheet <name>`: the worksheet of a workbook. */
    readonly worksheet: string;
    readonly payOn: string;
    readonly format: string;
    readonly examples: string;
  };
  readonly template: { readonly description: string; readonly lang: string; readonly examples: string };
}

export const importHelp: Readonly<Record<Locale, ImportHelp>> = {
  en: {
    import: {
      description: "import a payment sheet (CSV or XLSX) or an ERP's CNAB 240 remittance into a Pix batch: validate, look up keys, confirm, create and add items",
      sheet: 'CSV file (UTF-8 or Windows-1252, ; , or tab separated; see `paybatch template`), .xlsx workbook, or CNAB 240 payment remittance',
      name: 'batch name (default: the file name and today)',
      check: 'only the offline checks (rules, amounts, duplicates, limits): no provider, no ledger; for CI',
      dryRun: 'validate and look up keys, show the totals, create nothing',
      start: 'start the batch once every item is added',
      yes: 'do not ask for confirmation (scripts, CI)',
      skipInvalid: 'import the valid rows; write the rejected ones to <sheet>.rejected.csv',
      allowDuplicates: 'go on although a row pays a key the same amount as a payment of the last 30 days',
      worksheet: 'the worksheet of an .xlsx workbook to read (default: the first)',
      payOn: 'YYYY-MM-DD: import ready, and the daemon starts the batch at 08:00 São Paulo that business day',
      format: 'cnab240: read the file as a CNAB 240 remittance (recognised by its content without it)',
      examples: `
Running the same command again after an interruption continues where it stopped: the sheet's content is the
import's identity, and every item keeps its identifier, so nothing is paid twice.

Examples:
  paybatch import pagamentos.csv --check                  # in CI, before a person imports it
  paybatch import pagamentos.csv --dry-run
  paybatch import pagamentos.csv --start
  paybatch import pagamentos.csv --start --yes --json     # in CI
  paybatch import folha.xlsx --sheet Dezembro --pay-on 2026-12-04   # payroll started by the daemon that day
  paybatch import REM0112.rem --start     # an ERP's CNAB 240 remittance: titles due later wait for their date`,
    },
    template: {
      description: 'print a ready payment sheet template (CSV) to fill in',
      lang: 'pt (Portuguese headers, ;) or en (English headers, ,)',
      examples: '\nExamples:\n  paybatch template > pagamentos.csv\n  paybatch template --lang en > payments.csv',
    },
  },
  'pt-BR': {
    import: {
      description: 'importa uma planilha de pagamentos (CSV ou XLSX) ou uma remessa CNAB 240 do ERP para um lote Pix: valida, consulta as chaves, confirma, cria o lote e adiciona os itens',
      sheet: 'arquivo CSV (UTF-8 ou Windows-1252, separado por ; , ou tabulação; veja `paybatch template`), pasta de trabalho .xlsx ou remessa de pagamentos CNAB 240',
      name: 'nome do lote (padrão: o nome do arquivo e a data de hoje)',
      check: 'só as verificações offline (regras, valores, duplicados, limites): sem provedor, sem registro local; para CI',
      dryRun: 'valida e consulta as chaves, mostra os totais, não cria nada',
      start: 'inicia o lote assim que todos os itens forem adicionados',
      yes: 'não pede confirmação (scripts, CI)',
      skipInvalid: 'importa as linhas válidas; grava as rejeitadas em <sheet>.rejected.csv',
      allowDuplicates: 'segue em frente mesmo que uma linha pague a uma chave o mesmo valor de um pagamento dos últimos 30 dias',
      worksheet: 'a aba a ler de uma pasta de trabalho .xlsx (padrão: a primeira)',
      payOn: 'YYYY-MM-DD: importa o lote pronto, e o daemon o inicia às 08:00 (horário de São Paulo) nesse dia útil',
      format: 'cnab240: lê o arquivo como remessa CNAB 240 (sem ela, reconhecida pelo conteúdo)',
      examples: `
Rodar o mesmo comando de novo depois de uma interrupção continua de onde parou: o conteúdo da planilha é a
identidade da importação, e cada item mantém o seu identificador, então nada é pago duas vezes.

Exemplos:
  paybatch import pagamentos.csv --check                  # na CI, antes de uma pessoa importá-la
  paybatch import pagamentos.csv --dry-run
  paybatch import pagamentos.csv --start
  paybatch import pagamentos.csv --start --yes --json     # na CI
  paybatch import folha.xlsx --sheet Dezembro --pay-on 2026-12-04   # folha de pagamento iniciada pelo daemon nesse dia
  paybatch import REM0112.rem --start     # remessa CNAB 240 do ERP: títulos com data futura esperam a sua data`,
    },
    template: {
      description: 'escreve um modelo de planilha de pagamentos (CSV) pronto para preencher',
      lang: 'pt (cabeçalhos em português, ;) ou en (cabeçalhos em inglês, ,)',
      examples: '\nExemplos:\n  paybatch template > pagamentos.csv\n  paybatch template --lang en > payments.csv',
    },
  },
};
