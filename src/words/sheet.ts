import { formatBRL } from '../domain/money.js';
import type { ValidationCode, ValidationReason } from '../domain/validation-reason.js';
import type { SheetFieldName, SheetReason, XlsxLimitName } from '../domain/sheet-reason.js';
import type { Locale } from './locale.js';
import { CNAB_SENTENCES } from './cnab240.js';
import { sayValidation } from './validation.js';

/** The sheet's own reason codes (a validator's reason in a cell is said by validation.ts). */
type SheetCode = Exclude<SheetReason['code'], ValidationCode>;
/** One sentence per sheet reason code, from the reason's data: a code without its sentence is a type error. */
type Sentences = { readonly [C in SheetCode]: (r: Extract<SheetReason, { code: C }>) => string };

/** The names a field's column may have, as people write them. */
const SHOWN_ALIASES: Readonly<Record<SheetFieldName, string>> = {
  key: 'chave, chave_pix, key or pix_key',
  keyType: 'tipo_chave, tipo, key_type or type',
  amount: 'valor, amount or value',
  description: 'descricao, historico or description',
  identifier: 'identificador, id or identifier',
  name: 'nome, favorecido or name',
  document: 'documento, cpf, cnpj, cpf_cnpj or document',
};

const FIELD_WORDS: Readonly<Record<SheetFieldName, string>> = {
  key: 'Pix key', keyType: 'key type', amount: 'amount', description: 'description',
  identifier: 'identifier', name: 'name', document: 'document (CPF/CNPJ)',
};

const MiB = 1024 * 1024;
/** A size, in MiB when it is a whole number of them. */
const bytes = (n: number, locale: string): string => (n % MiB ? `${n.toLocaleString(locale)} bytes` : `${n / MiB} MiB`);
/** What a limit of an XLSX workbook (xlsx-limits.ts) is, with its value. */
const XLSX_LIMITS_EN: Readonly<Record<XlsxLimitName, (max: number) => string>> = {
  cellChars: (max) => `a cell holds more than ${max.toLocaleString('en')} characters, the most a cell may hold (as in Excel)`,
  rowChars: (max) => `the cells of a row hold more than ${max.toLocaleString('en')} characters in all, the most a row may hold`,
  rows: (max) => `the worksheet has more than ${max.toLocaleString('en')} rows, the most paybatch reads from a workbook`,
  columns: (max) => `the worksheet describes more than ${max.toLocaleString('en')} columns, the most a worksheet may have (as in Excel)`,
  sharedStringsBytes: (max) =>
    `its shared strings (xl/sharedStrings.xml, the text of the cells) take more than ${bytes(max, 'en')} uncompressed, the most paybatch keeps in memory`,
  worksheetBytes: (max) => `the worksheet takes more than ${bytes(max, 'en')} uncompressed, the most paybatch reads of a worksheet`,
  partBytes: (max) =>
    `a part of it (the workbook, its relationships or its styles) takes more than ${bytes(max, 'en')} uncompressed, the most paybatch reads of one`,
};

const KEY_KIND_EN = { cpf: 'CPF', cnpj: 'CNPJ', phone: 'phone', email: 'e-mail', evp: 'random (evp)' } as const;
const quoted = (cells: readonly string[]) => cells.map((c) => `"${c}"`).join(', ');

/** Why a sheet or a row of it is refused, in English (the words of `--json`). */
const en: Sentences = {
  amount_missing: () => 'the amount is empty',
  amount_above_item_limit: (r) => `${formatBRL(r.amountCents)} is above the limit per item of ${formatBRL(r.limitCents)} (maxItemAmount)`,
  identifier_not_uuid: (r) => `"${r.cell}" is not a UUID (like 123e4567-e89b-42d3-a456-426614174000); leave it empty and paybatch derives one`,
  identifier_nil: () => 'the nil UUID cannot identify a payment; leave it empty and paybatch derives one',
  identifier_twice: (r) => `the same identifier as line ${r.firstLine}; each payment needs its own`,
  document_not_key: (r) => {
    const kind = r.keyType.toUpperCase();
    return `${r.document} does not match the ${kind} key ${r.key}: a ${kind} key is the payee's own ${kind}`;
  },
  description_too_long: (r) => `has ${r.length} characters; a Pix payment carries at most ${r.max}`,
  duplicate_row: (r) => `duplicate: same as line ${r.firstLine} (same key, amount and description)`,
  key_type_unknown: (r) =>
    `unknown key type "${r.cell}": use cpf, cnpj, celular (or telefone, phone), email or aleatoria (or evp, random)`,
  key_missing: () => 'the Pix key is empty',
  key_scientific_notation: (r) =>
    `"${r.key}" is a number a spreadsheet turned into scientific notation; format the column as text and export again`,
  key_looks_like: (r) => `${sayValidation(r.reason, 'en')}; it looks like a valid ${KEY_KIND_EN[r.looksLike]} key: check ${r.typeColumn}`,
  key_ambiguous: (r) =>
    `ambiguous: CPF or phone; ${r.hasTypeColumn ? `fill ${r.typeColumn}` : `add a ${r.typeColumn} column`} with cpf or ${r.sheetLanguage === 'pt' ? 'celular' : 'phone'}`,
  cells_missing: (r) =>
    `has ${r.cells} cells but the header has ${r.named}; a cell is missing (or a value holds a line break without quotes)`,
  cells_unquoted: (r) =>
    `has ${r.cells} cells but the header has ${r.header}; a value with ${r.delimiter === '\t' ? 'a tab' : `"${r.delimiter}"`} in it must be in double quotes`,
  zeros_lost: (r) =>
    `the workbook stores ${r.digits} as a number, which drops leading zeros (${r.digits.length} digits; a CPF has 11, a CNPJ 14)` +
    `${r.meant === null ? '' : `; with its zeros it would be the ${r.meant.type.toUpperCase()} ${r.meant.value}`}: format the column as Text and type it again`,
  csv_quote_not_closed: () => 'a quoted cell opened on this line is never closed (a " is missing); nothing after it could be read',
  csv_invalid: (r) => `the file is not valid CSV here: ${r.message}`,

  file_utf16: () => 'the file is UTF-16 ("Unicode text"); save it as "CSV UTF-8" or "CSV (separated by semicolons)"',
  file_workbook: () => 'the file is a spreadsheet workbook (.xlsx/.ods), not CSV; save it as CSV first',
  file_binary: () => 'the file is not text (it has NUL bytes); save the sheet as CSV',
  mixed_encoding: ({ utf8, other }) =>
    `the file mixes two encodings: line ${utf8.line} (byte ${utf8.byte}) has "${utf8.text}" in UTF-8 (${utf8.hex}), ` +
    `line ${other.line} (byte ${other.byte}) has the byte ${other.hex}, which is not UTF-8 ("${other.text}" in Windows-1252); ` +
    'no single reading gets every name and document right: save the whole sheet again as "CSV UTF-8"',
  xlsx_not_zip: () => 'the file is not an XLSX workbook (it is not a ZIP file as .xlsx files are); save it from the spreadsheet as .xlsx, or as CSV',
  xlsx_damaged: (r) =>
    `the file cannot be read as an XLSX workbook: it is damaged or cut short (${r.error}); open it in the spreadsheet and save it again as .xlsx`,
  xlsx_no_worksheet: () => 'the workbook has no worksheet (is it an XLSX workbook? save it from the spreadsheet as .xlsx)',
  xlsx_no_worksheet_named: (r) => `the workbook has no worksheet named "${r.wanted}"; it has ${quoted(r.seen)}`,
  xlsx_too_large: (r) =>
    `the workbook is too large to read as .xlsx: ${XLSX_LIMITS_EN[r.limit](r.max)}; save the sheet as CSV and import the CSV file instead`,
  xlsx_dtd: () => 'the workbook holds a DTD (<!DOCTYPE), which no spreadsheet writes in an .xlsx file; open it in the spreadsheet and save it again as .xlsx, or as CSV',
  column_twice: (r) =>
    `columns "${r.first}" (column ${r.firstColumn}) and "${r.second}" (column ${r.secondColumn}) both mean the ${FIELD_WORDS[r.field]}; keep one`,
  column_missing: (r) =>
    `no column for the ${FIELD_WORDS[r.field]}: name one ${SHOWN_ALIASES[r.field]} ` +
    `(the first line must be the header; it has ${r.found.length === 0 ? 'nothing' : quoted(r.found)})`,
  sheet_empty: () => 'the sheet is empty: expected a header line and one row per payment',
  sheet_no_rows: () => 'the sheet has a header but no payment rows',
  ...CNAB_SENTENCES.en,
};

const SHOWN_ALIASES_PT: Readonly<Record<SheetFieldName, string>> = {
  key: 'chave, chave_pix, key ou pix_key',
  keyType: 'tipo_chave, tipo, key_type ou type',
  amount: 'valor, amount ou value',
  description: 'descricao, historico ou description',
  identifier: 'identificador, id ou identifier',
  name: 'nome, favorecido ou name',
  document: 'documento, cpf, cnpj, cpf_cnpj ou document',
};

// With their article, which "d" before them contracts: "da chave Pix", "do valor".
const FIELD_WORDS_PT: Readonly<Record<SheetFieldName, string>> = {
  key: 'a chave Pix', keyType: 'o tipo de chave', amount: 'o valor', description: 'a descrição',
  identifier: 'o identificador', name: 'o nome', document: 'o documento (CPF/CNPJ)',
};

const XLSX_LIMITS_PT: Readonly<Record<XlsxLimitName, (max: number) => string>> = {
  cellChars: (max) => `uma célula tem mais de ${max.toLocaleString('pt-BR')} caracteres, o máximo de uma célula (como no Excel)`,
  rowChars: (max) => `as células de uma linha têm mais de ${max.toLocaleString('pt-BR')} caracteres ao todo, o máximo de uma linha`,
  rows: (max) => `a aba tem mais de ${max.toLocaleString('pt-BR')} linhas, o máximo que o paybatch lê de uma pasta de trabalho`,
  columns: (max) => `a aba descreve mais de ${max.toLocaleString('pt-BR')} colunas, o máximo de uma aba (como no Excel)`,
  sharedStringsBytes: (max) =>
    `as strings compartilhadas (xl/sharedStrings.xml, o texto das células) ocupam mais de ${bytes(max, 'pt-BR')} descompactadas, o máximo que o paybatch mantém em memória`,
  worksheetBytes: (max) => `a aba ocupa mais de ${bytes(max, 'pt-BR')} descompactada, o máximo que o paybatch lê de uma aba`,
  partBytes: (max) =>
    `uma parte dela (a pasta de trabalho, suas relações ou seus estilos) ocupa mais de ${bytes(max, 'pt-BR')} descompactada, o máximo que o paybatch lê de uma parte`,
};

const KEY_KIND_PT = { cpf: 'CPF', cnpj: 'CNPJ', phone: 'celular', email: 'e-mail', evp: 'aleatória (evp)' } as const;

const ptBR: Sentences = {
  amount_missing: () => 'o valor está vazio',
  amount_above_item_limit: (r) => `${formatBRL(r.amountCents)} passa do limite por item de ${formatBRL(r.limitCents)} (maxItemAmount)`,
  identifier_not_uuid: (r) => `"${r.cell}" não é um UUID (como 123e4567-e89b-42d3-a456-426614174000); deixe vazio e o paybatch gera um`,
  identifier_nil: () => 'o UUID nulo não identifica um pagamento; deixe vazio e o paybatch gera um',
  identifier_twice: (r) => `o mesmo identificador da linha ${r.firstLine}; cada pagamento precisa do seu`,
  document_not_key: (r) => {
    const kind = r.keyType.toUpperCase();
    return `${r.document} não confere com a chave ${kind} ${r.key}: uma chave ${kind} é o próprio ${kind} do favorecido`;
  },
  description_too_long: (r) => `tem ${r.length} caracteres; um Pix leva no máximo ${r.max}`,
  duplicate_row: (r) => `duplicada: igual à linha ${r.firstLine} (mesma chave, valor e descrição)`,
  key_type_unknown: (r) =>
    `tipo de chave desconhecido "${r.cell}": use cpf, cnpj, celular (ou telefone, phone), email ou aleatoria (ou evp, random)`,
  key_missing: () => 'a chave Pix está vazia',
  key_scientific_notation: (r) =>
    `"${r.key}" é um número que a planilha converteu em notação científica; formate a coluna como texto e exporte de novo`,
  key_looks_like: (r) => `${sayValidation(r.reason, 'pt-BR')}; parece uma chave ${KEY_KIND_PT[r.looksLike]} válida: confira ${r.typeColumn}`,
  key_ambiguous: (r) =>
    `ambígua: CPF ou celular; ${r.hasTypeColumn ? `preencha ${r.typeColumn}` : `acrescente uma coluna ${r.typeColumn}`} com cpf ou ${r.sheetLanguage === 'pt' ? 'celular' : 'phone'}`,
  cells_missing: (r) =>
    `tem ${r.cells} células mas o cabeçalho tem ${r.named}; falta uma célula (ou um valor tem quebra de linha sem aspas)`,
  cells_unquoted: (r) =>
    `tem ${r.cells} células mas o cabeçalho tem ${r.header}; um valor com ${r.delimiter === '\t' ? 'tabulação' : `"${r.delimiter}"`} precisa estar entre aspas duplas`,
  zeros_lost: (r) =>
    `a planilha guarda ${r.digits} como número, o que tira os zeros à esquerda (${r.digits.length} dígitos; um CPF tem 11, um CNPJ 14)` +
    `${r.meant === null ? '' : `; com os zeros seria o ${r.meant.type.toUpperCase()} ${r.meant.value}`}: formate a coluna como Texto e digite de novo`,
  csv_quote_not_closed: () => 'uma célula entre aspas aberta nesta linha nunca é fechada (falta um "); nada depois dela pôde ser lido',
  csv_invalid: (r) => `o arquivo não é um CSV válido aqui: ${r.message}`,

  file_utf16: () => 'o arquivo está em UTF-16 ("Texto Unicode"); salve-o como "CSV UTF-8" ou "CSV (separado por ponto e vírgula)"',
  file_workbook: () => 'o arquivo é uma pasta de trabalho (.xlsx/.ods), não CSV; salve-o como CSV antes',
  file_binary: () => 'o arquivo não é texto (tem bytes NUL); salve a planilha como CSV',
  mixed_encoding: ({ utf8, other }) =>
    `o arquivo mistura duas codificações: a linha ${utf8.line} (byte ${utf8.byte}) tem "${utf8.text}" em UTF-8 (${utf8.hex}), ` +
    `a linha ${other.line} (byte ${other.byte}) tem o byte ${other.hex}, que não é UTF-8 ("${other.text}" em Windows-1252); ` +
    'nenhuma leitura acerta todos os nomes e documentos: salve a planilha inteira de novo como "CSV UTF-8"',
  xlsx_not_zip: () => 'o arquivo não é uma pasta de trabalho XLSX (não é um arquivo ZIP, como são os .xlsx); salve-o na planilha como .xlsx, ou como CSV',
  xlsx_damaged: (r) =>
    `o arquivo não pode ser lido como pasta de trabalho XLSX: está danificado ou incompleto (${r.error}); abra-o na planilha e salve de novo como .xlsx`,
  xlsx_no_worksheet: () => 'a pasta de trabalho não tem nenhuma aba (é mesmo XLSX? salve-a na planilha como .xlsx)',
  xlsx_no_worksheet_named: (r) => `a pasta de trabalho não tem aba chamada "${r.wanted}"; ela tem ${quoted(r.seen)}`,
  xlsx_too_large: (r) =>
    `a pasta de trabalho é grande demais para ler como .xlsx: ${XLSX_LIMITS_PT[r.limit](r.max)}; salve a planilha como CSV e importe o arquivo CSV`,
  xlsx_dtd: () => 'a pasta de trabalho contém uma DTD (<!DOCTYPE), que nenhuma planilha grava num arquivo .xlsx; abra-a na planilha e salve de novo como .xlsx, ou como CSV',
  column_twice: (r) =>
    `as colunas "${r.first}" (coluna ${r.firstColumn}) e "${r.second}" (coluna ${r.secondColumn}) querem dizer ambas ${FIELD_WORDS_PT[r.field]}; deixe uma`,
  column_missing: (r) =>
    `falta a coluna d${FIELD_WORDS_PT[r.field]}: chame uma de ${SHOWN_ALIASES_PT[r.field]} ` +
    `(a primeira linha deve ser o cabeçalho; ela tem ${r.found.length === 0 ? 'nada' : quoted(r.found)})`,
  sheet_empty: () => 'a planilha está vazia: esperado um cabeçalho e uma linha por pagamento',
  sheet_no_rows: () => 'a planilha tem cabeçalho mas nenhuma linha de pagamento',
  ...CNAB_SENTENCES['pt-BR'],
};

/** The sentences of the sheet's own reasons per language. */
export const SHEET_SENTENCES: Readonly<Record<Locale, Sentences>> = { en, 'pt-BR': ptBR };

const isSheetCode = (code: string): code is SheetCode => code in en;

/** A sheet's reason (its own, or a validator's for a cell) as a sentence in `locale` (English for `--json`). */
export function saySheet(reason: SheetReason, locale: Locale): string {
  if (isSheetCode(reason.code)) return SHEET_SENTENCES[locale][reason.code](reason as never);
  return sayValidation(reason as ValidationReason, locale);
}
