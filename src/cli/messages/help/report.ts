import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch report`. */
export interface ReportHelp {
  readonly description: string;
  readonly batch: string;
  readonly format: string;
  readonly out: string;
  readonly zip: string;
  readonly force: string;
  readonly month: string;
  readonly from: string;
  readonly to: string;
  /** The file written, and the examples. */
  readonly examples: string;
}

export const reportHelp: Readonly<Record<Locale, ReportHelp>> = {
  en: {
    description: "a batch's payments, or a statement of a period across every batch and bill, for accounting: CSV, XLSX, PDF or OFX",
    batch: 'local #id or provider id (leave it out for a period)',
    format: 'csv, xlsx, pdf, or ofx (a period only)',
    month: 'a statement of this month (São Paulo days)',
    from: "a statement from this day (with --to)",
    to: 'a statement up to this day, inclusive',
    out: 'folder to write to (default: the current one)',
    zip: 'one zip with the report and every receipt of the batch',
    force: 'replace a file of the same name (default: keep it and write <name>-2, -3, …)',
    examples: `
The file is <profile>-batch-<id>-<batch name>-report.<format> (or .zip), private to you (mode 0600), in the
profile's language: Portuguese ("Extrato consolidado", DD/MM/AAAA) or English; times are São Paulo's. An
existing file is never replaced (without --force): the next free name is written, and said.

A statement of a period (--month, or --from and --to) covers every Pix payment and bill of the profile: a
sheet row counted once by how it ended — paid in the period its payment settled, returned in the period of the
return, failed in the period it failed, open in the period it was sent — with where each row retried or paid
again was paid, and totals where all = paid + failed + returned + open. It is written as
<profile>-statement-<period>.<format>. OFX needs the company's account (companyBank, companyBranch,
companyAccount); the payer line comes from companyName and companyDocument.

Examples:
  paybatch report 3                       # default-batch-3-folha-novembro-report.csv here
  paybatch report 3 --format xlsx --out ~/fechamento
  paybatch report 3 --format pdf --zip    # the report and every receipt in one .zip
  paybatch report --month 2026-11 --format pdf      # default-statement-2026-11.pdf
  paybatch report --from 2026-11-01 --to 2026-11-15 --format ofx`,
  },
  'pt-BR': {
    description: 'os pagamentos de um lote, ou o extrato de um período com todos os lotes e contas, para a contabilidade: CSV, XLSX, PDF ou OFX',
    batch: '#id local ou id no provedor (deixe de fora para um período)',
    format: 'csv, xlsx, pdf, ou ofx (só para um período)',
    month: 'o extrato deste mês (dias de São Paulo)',
    from: 'o extrato a partir deste dia (com --to)',
    to: 'o extrato até este dia, inclusive',
    out: 'pasta onde escrever (padrão: a atual)',
    zip: 'um zip com o relatório e todos os comprovantes do lote',
    force: 'substitui um arquivo de mesmo nome (padrão: mantém o existente e grava <nome>-2, -3, …)',
    examples: `
O arquivo é <perfil>-batch-<id>-<nome do lote>-report.<format> (ou .zip), acessível só a você (modo 0600),
no idioma do perfil: português ("Extrato consolidado", DD/MM/AAAA) ou inglês; os horários são os de São Paulo.
Um arquivo existente nunca é substituído (sem --force): o próximo nome livre é gravado, e dito.

O extrato de um período (--month, ou --from e --to) cobre todos os pagamentos Pix e contas do perfil: cada
linha da planilha contada uma vez, pelo seu desfecho — paga no período em que o pagamento foi liquidado,
devolvida no período da devolução, falha no período em que falhou, em aberto no período em que foi enviada —,
com onde foi paga cada linha repetida ou paga de novo, e totais em que todos = pagos + falharam + devolvidos +
em aberto. É gravado como <perfil>-statement-<período>.<format>. O OFX precisa da conta da empresa
(companyBank, companyBranch, companyAccount); a linha do pagador vem de companyName e companyDocument.

Exemplos:
  paybatch report 3                       # default-batch-3-folha-novembro-report.csv aqui
  paybatch report 3 --format xlsx --out ~/fechamento
  paybatch report 3 --format pdf --zip    # o relatório e todos os comprovantes em um .zip
  paybatch report --month 2026-11 --format pdf      # default-statement-2026-11.pdf
  paybatch report --from 2026-11-01 --to 2026-11-15 --format ofx`,
  },
};
