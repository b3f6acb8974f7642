/**
 * Why an import (or `--check`, or a retry) is refused, and why each row is left out, in words: one table per
 * language over the codes of engine/pix-import/import-refusal.ts. English is also the text of `--json` documents.
 */
import { formatBRL } from '../../domain/money.js';
import type { SheetReason } from '../../domain/sheet-reason.js';
import type { ImportProblem, ImportRefusal, ImportRefusedError, LookupFailure, RowReason } from '../../engine/pix-import/index.js';
import { InputRejectedError, type InputProblem } from '../../errors.js';
import type { Locale } from '../../words/locale.js';
import { saySheet } from '../../words/sheet.js';
import { counted, pluralForm } from '../../words/plural.js';

type OwnRowReason = Exclude<RowReason, SheetReason | LookupFailure>;
type RowWords = { readonly [C in OwnRowReason['code']]: (r: Extract<OwnRowReason, { code: C }>) => string } & {
  readonly key_lookup_failed: { readonly [W in LookupFailure['why']]: (r: Extract<LookupFailure, { why: W }>) => string };
};
type RefusalWords = { readonly [C in ImportRefusal['code']]: (r: Extract<ImportRefusal, { code: C }>) => { message: string; hint?: string } };

const ROWS: Readonly<Record<Locale, RowWords>> = {
  en: {
    key_lookup_failed: {
      unknown_key: () => 'the provider does not know this Pix key',
      refused_key: (r) => `the provider refused this key: ${r.message}`,
      not_looked_up: () => 'the key was not looked up',
    },
    document_mismatch: (r) => `the key belongs to document ${r.shown}, not ${r.given}`,
    no_document_shown: () => 'the provider shows no document for this key, so it cannot be checked',
    paid_before: (r) => `${r.key} was sent ${formatBRL(r.amountCents)} in batch "${r.batchName}" on ${r.date}, a payment that may have reached them`,
    title_paid: (r) => `the title with "seu número" ${r.yourNumber} was paid already (batch #${r.batchId}); a title is paid once`,
    title_open: (r) => `the title with "seu número" ${r.yourNumber} is still being paid (batch #${r.batchId})`,
    title_unconfirmed: (r) =>
      `the title with "seu número" ${r.yourNumber} was last ${r.status} (batch #${r.batchId}) by an event the provider's record has not confirmed; run 'paybatch reconcile ${r.batchId}' first`,
    company_differs: (r) => `the remittance is of company ${r.document}, but the profile's companyDocument is ${r.configured}`,
  },
  'pt-BR': {
    key_lookup_failed: {
      unknown_key: () => 'o provedor não conhece esta chave Pix',
      refused_key: (r) => `o provedor recusou esta chave: ${r.message}`,
      not_looked_up: () => 'a chave não foi consultada',
    },
    document_mismatch: (r) => `a chave pertence ao documento ${r.shown}, não a ${r.given}`,
    no_document_shown: () => 'o provedor não mostra documento para esta chave, então não dá para conferir',
    paid_before: (r) => `${r.key} teve ${formatBRL(r.amountCents)} enviados no lote "${r.batchName}" em ${r.date}, um pagamento que pode tê-lo alcançado`,
    title_paid: (r) => `o título de "seu número" ${r.yourNumber} já foi pago (lote #${r.batchId}); um título é pago uma vez só`,
    title_open: (r) => `o título de "seu número" ${r.yourNumber} ainda está sendo pago (lote #${r.batchId})`,
    title_unconfirmed: (r) =>
      `o título de "seu número" ${r.yourNumber} terminou ${r.status === 'failed' ? 'com falha' : 'devolvido'} (lote #${r.batchId}) por um evento que o registro do provedor ainda não confirmou; rode 'paybatch reconcile ${r.batchId}' antes`,
    company_differs: (r) => `a remessa é da empresa ${r.document}, mas o companyDocument do perfil é ${r.configured}`,
  },
};

const ended = (sentence: string, imported: boolean, nothing: string) => `${sentence}${imported ? `; ${nothing}` : ''}.`;

const REFUSALS: Readonly<Record<Locale, RefusalWords>> = {
  en: {
    sheet_unreadable: (r) => ({ message: ended(`${r.file} cannot be read as a payment sheet`, r.imported, 'nothing was imported') }),
    sheet_empty: (r) => ({ message: ended(`${r.file} has no payment rows`, r.imported, 'nothing was imported') }),
    rows_invalid: (r) => ({
      message: ended(`${r.file}: ${r.rejected} of ${counted('en', r.rows, { one: 'row', other: 'rows' })} ${pluralForm('en', r.rejected, { one: 'is', other: 'are' })} invalid`, r.rejectedFile !== null, 'nothing was imported'),
      ...(r.rejectedFile === null ? {} : { hint: `Fix the sheet, or pass --skip-invalid to import the valid rows and write the others to ${r.rejectedFile}.` }),
    }),
    rows_ruled_out: (r) => ({
      message: `${r.file}: the provider rules out ${counted('en', r.rows, { one: 'row', other: 'rows' })}; nothing was imported.`,
      hint: `Fix the sheet, or pass --skip-invalid to import the other rows and write these to ${r.rejectedFile}.`,
    }),
    no_row_payable: (r) => ({ message: `${r.file}: no row can be paid; nothing was imported.` }),
    above_batch_total: (r) => ({
      message: ended(`${r.file}: the total ${formatBRL(r.totalCents)} is above the profile's maxBatchTotal of ${formatBRL(r.limitCents)}`, r.imported, 'nothing was imported'),
      hint: "Split the sheet, or raise the limit with 'paybatch config set maxBatchTotal <R$>'.",
    }),
    retry_ruled_out: (r) => ({
      message: `${r.source}: the provider rules out ${r.rows} of the rows to pay again; nothing was created.`,
      hint: `Write them to a sheet with 'paybatch batch export ${r.batchId} --status ${r.statuses} > corrigir.csv', fix it, and import it.`,
    }),
    duplicates: (r) => ({
      message: `${r.source}: ${counted('en', r.rows, { one: 'row pays', other: 'rows pay' })} a key the same amount it was paid in the last ${r.days} days; nothing was ${r.nothing}.`,
      hint: 'If these are meant to be paid again, pass --allow-duplicates.',
    }),
    remittance_refused: (r) => ({
      message: `${r.file}: ${counted('en', r.titles, { one: 'title', other: 'titles' })} cannot be paid as the remittance stands; nothing was imported.`,
      hint: 'Have the ERP write the remittance again with these lines corrected.',
    }),
    remittance_bills_only: (r) => ({
      message: `${r.file} holds only bills (${counted('en', r.bills, { one: 'title', other: 'titles' })} in segment J); nothing was imported.`,
      hint: `Pay them with 'paybatch boleto pay --file ${r.file}'.`,
    }),
  },
  'pt-BR': {
    sheet_unreadable: (r) => ({ message: ended(`${r.file} não pode ser lido como planilha de pagamentos`, r.imported, 'nada foi importado') }),
    sheet_empty: (r) => ({ message: ended(`${r.file} não tem linhas de pagamento`, r.imported, 'nada foi importado') }),
    rows_invalid: (r) => ({
      message: ended(
        `${r.file}: ${r.rejected} de ${counted('pt-BR', r.rows, { one: 'linha', other: 'linhas' })} ${pluralForm('pt-BR', r.rejected, { one: 'é inválida', other: 'são inválidas' })}`,
        r.rejectedFile !== null,
        'nada foi importado',
      ),
      ...(r.rejectedFile === null ? {} : { hint: `Corrija a planilha, ou use --skip-invalid para importar as linhas válidas e gravar as outras em ${r.rejectedFile}.` }),
    }),
    rows_ruled_out: (r) => ({
      message: `${r.file}: o provedor recusa ${counted('pt-BR', r.rows, { one: 'linha', other: 'linhas' })}; nada foi importado.`,
      hint: `Corrija a planilha, ou use --skip-invalid para importar as outras linhas e gravar estas em ${r.rejectedFile}.`,
    }),
    no_row_payable: (r) => ({ message: `${r.file}: nenhuma linha pode ser paga; nada foi importado.` }),
    above_batch_total: (r) => ({
      message: ended(`${r.file}: o total ${formatBRL(r.totalCents)} passa do maxBatchTotal do perfil, de ${formatBRL(r.limitCents)}`, r.imported, 'nada foi importado'),
      hint: "Divida a planilha, ou aumente o limite com 'paybatch config set maxBatchTotal <R$>'.",
    }),
    retry_ruled_out: (r) => ({
      message: `${r.source}: o provedor recusa ${r.rows} das linhas a pagar de novo; nada foi criado.`,
      hint: `Grave-as numa planilha com 'paybatch batch export ${r.batchId} --status ${r.statuses} > corrigir.csv', corrija-a e importe-a.`,
    }),
    duplicates: (r) => ({
      message: `${r.source}: ${counted('pt-BR', r.rows, { one: 'linha paga', other: 'linhas pagam' })} a uma chave o mesmo valor já pago a ela nos últimos ${r.days} dias; nada foi ${r.nothing === 'imported' ? 'importado' : 'criado'}.`,
      hint: 'Se é para pagar de novo, use --allow-duplicates.',
    }),
    remittance_refused: (r) => ({
      message: `${r.file}: ${counted('pt-BR', r.titles, { one: 'título não pode ser pago', other: 'títulos não podem ser pagos' })} como a remessa está; nada foi importado.`,
      hint: 'Peça ao ERP para gerar a remessa de novo com essas linhas corrigidas.',
    }),
    remittance_bills_only: (r) => ({
      message: `${r.file} só tem boletos (${counted('pt-BR', r.bills, { one: 'título', other: 'títulos' })} no segmento J); nada foi importado.`,
      hint: `Pague-os com 'paybatch boleto pay --file ${r.file}'.`,
    }),
  },
};

/** A row's reason in `locale`. */
export function sayRowReason(reason: RowReason, locale: Locale): string {
  const words = ROWS[locale];
  if (reason.code === 'key_lookup_failed') {
    const failure = reason as LookupFailure;
    return (words.key_lookup_failed[failure.why] as (r: LookupFailure) => string)(failure);
  }
  if (reason.code in words) return (words[reason.code as OwnRowReason['code']] as (r: RowReason) => string)(reason);
  return saySheet(reason as SheetReason, locale);
}

/** A row's problem in `locale`, with its reason's stable code beside the words (as `--json` gives it). */
export function sayImportProblem(p: ImportProblem, locale: Locale): InputProblem {
  // A remittance's problems name positions of its 240-position line, not a column.
  const field = p.field !== undefined && /^\d+-\d+$/.test(p.field) ? `${locale === 'pt-BR' ? 'posições' : 'positions'} ${p.field}` : p.field;
  return { ...p, ...(field === undefined ? {} : { field }), reason: sayRowReason(p.reason, locale), code: p.reason.code };
}

/** The engine's refusal as the error people read (in `locale`; the CLI passes 'en' under `--json`), with the same exit code. */
export function sayImportRefusal(e: ImportRefusedError, locale: Locale): InputRejectedError {
  const said = (REFUSALS[locale][e.refusal.code] as (r: ImportRefusal) => { message: string; hint?: string })(e.refusal);
  return new InputRejectedError(said.message, e.rows.map((p) => sayImportProblem(p, locale)), said.hint === undefined ? undefined : { hint: said.hint });
}
