import type { Locale } from '../words/locale.js';
import type { PixKeyType } from '../domain/pix-key.js';
import type { XlsxLimits } from './xlsx-limits.js';

/** Why a sheet row is refused, in English (the words of `--json`). Built only for rows that fail. */
const en = {
  amountEmpty: 'the amount is empty',
  aboveItemLimit: (amount: string, limit: string) => `${amount} is above the limit per item of ${limit} (maxItemAmount)`,
  notUuid: (cell: string) => `"${cell}" is not a UUID (like 123e4567-e89b-42d3-a456-426614174000); leave it empty and paybatch derives one`,
  nilUuid: 'the nil UUID cannot identify a payment; leave it empty and paybatch derives one',
  identifierTwice: (first: number) => `the same identifier as line ${first}; each payment needs its own`,
  documentNotKey: (document: string, kind: string, key: string) =>
    `${document} does not match the ${kind} key ${key}: a ${kind} key is the payee's own ${kind}`,
  descriptionTooLong: (length: number, max: number) => `has ${length} characters; a Pix payment carries at most ${max}`,
  duplicateRow: (first: number) => `duplicate: same as line ${first} (same key, amount and description)`,
  unknownKeyType: (cell: string) =>
    `unknown key type "${cell}": use cpf, cnpj, celular (or telefone, phone), email or aleatoria (or evp, random)`,
  keyEmpty: 'the Pix key is empty',
  keyInvalid: 'not a valid Pix key',
  scientificNotation: (key: string) =>
    `"${key}" is a number a spreadsheet turned into scientific notation; format the column as text and export again`,
  looksLike: (type: PixKeyType, typeLabel: string) =>
    `; it looks like a valid ${{ cpf: 'CPF', cnpj: 'CNPJ', phone: 'phone', email: 'e-mail', evp: 'random (evp)' }[type]} key: check ${typeLabel}`,
  ambiguousKey: (typeLabel: string, hasTypeColumn: boolean, phoneWord: string) =>
    `ambiguous: CPF or phone; ${hasTypeColumn ? `fill ${typeLabel}` : `add a ${typeLabel} column`} with cpf or ${phoneWord}`,
  cellsMissing: (cells: number, named: number) =>
    `has ${cells} cells but the header has ${named}; a cell is missing (or a value holds a line break without quotes)`,
  cellsUnquoted: (cells: number, header: number, delimiter: string) =>
    `has ${cells} cells but the header has ${header}; a value with ${delimiter === '\t' ? 'a tab' : `"${delimiter}"`} in it must be in double quotes`,
  zerosLost: (digits: string, meant: { type: 'CPF' | 'CNPJ'; value: string } | null) =>
    `the workbook stores ${digits} as a number, which drops leading zeros (${digits.length} digits; a CPF has 11, a CNPJ 14)` +
    `${meant === null ? '' : `; with its zeros it would be the ${meant.type} ${meant.value}`}: format the column as Text and type it again`,
};

/** Where a kind of byte first shows in a file (decode-text.ts's `BytePlace`, not imported: it imports these words). */
interface BytePlace {
  readonly line: number;
  readonly byte: number;
  readonly hex: string;
  readonly text: string;
}

/** The fields of a sheet (`SheetField`, not imported: headers.ts imports these words). */
type Field = 'key' | 'keyType' | 'amount' | 'description' | 'identifier' | 'name' | 'document';

/** The names a field's column may have, as people write them. */
const SHOWN_ALIASES: Readonly<Record<Field, string>> = {
  key: 'chave, chave_pix, key or pix_key',
  keyType: 'tipo_chave, tipo, key_type or type',
  amount: 'valor, amount or value',
  description: 'descricao, historico or description',
  identifier: 'identificador, id or identifier',
  name: 'nome, favorecido or name',
  document: 'documento, cpf, cnpj, cpf_cnpj or document',
};

const FIELD_WORDS: Readonly<Record<Field, string>> = {
  key: 'Pix key', keyType: 'key type', amount: 'amount', description: 'description',
  identifier: 'identifier', name: 'name', document: 'document (CPF/CNPJ)',
};

const MiB = 1024 * 1024;
/** A size, in MiB when it is a whole number of them. */
const bytes = (n: number, locale: string): string => (n % MiB ? `${n.toLocaleString(locale)} bytes` : `${n / MiB} MiB`);
/** What a limit of an XLSX workbook (xlsx-limits.ts) is, with its value. */
const XLSX_LIMITS_EN: Readonly<Record<keyof XlsxLimits, (max: number) => string>> = {
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

const enHeader = {
  columnTwice: (first: string, firstColumn: number, second: string, secondColumn: number, field: Field) =>
    `columns "${first}" (column ${firstColumn}) and "${second}" (column ${secondColumn}) both mean the ${FIELD_WORDS[field]}; keep one`,
  columnMissing: (field: Field, found: string) =>
    `no column for the ${FIELD_WORDS[field]}: name one ${SHOWN_ALIASES[field]} ` +
    `(the first line must be the header; it has ${found === '' ? 'nothing' : found})`,
  sheetEmpty: 'the sheet is empty: expected a header line and one row per payment',
  noRows: 'the sheet has a header but no payment rows',
  notXlsx: 'the file is not an XLSX workbook (it is not a ZIP file as .xlsx files are); save it from the spreadsheet as .xlsx, or as CSV',
  damagedXlsx: (error: string) =>
    `the file cannot be read as an XLSX workbook: it is damaged or cut short (${error}); open it in the spreadsheet and save it again as .xlsx`,
  noWorksheet: 'the workbook has no worksheet (is it an XLSX workbook? save it from the spreadsheet as .xlsx)',
  noWorksheetNamed: (wanted: string, seen: string) => `the workbook has no worksheet named "${wanted}"; it has ${seen}`,
  xlsxTooLarge: (limit: keyof XlsxLimits, max: number) =>
    `the workbook is too large to read as .xlsx: ${XLSX_LIMITS_EN[limit](max)}; save the sheet as CSV and import the CSV file instead`,
  xlsxDtd: 'the workbook holds a DTD (<!DOCTYPE), which no spreadsheet writes in an .xlsx file; open it in the spreadsheet and save it again as .xlsx, or as CSV',
  mixedEncoding: (utf8: BytePlace, other: BytePlace) =>
    `the file mixes two encodings: line ${utf8.line} (byte ${utf8.byte}) has "${utf8.text}" in UTF-8 (${utf8.hex}), ` +
    `line ${other.line} (byte ${other.byte}) has the byte ${other.hex}, which is not UTF-8 ("${other.text}" in Windows-1252); ` +
    'no single reading gets every name and document right: save the whole sheet again as "CSV UTF-8"',
};

export type SheetWords = typeof en & typeof enHeader;

const SHOWN_ALIASES_PT: Readonly<Record<Field, string>> = {
  key: 'chave, chave_pix, key ou pix_key',
  keyType: 'tipo_chave, tipo, key_type ou type',
  amount: 'valor, amount ou value',
  description: 'descricao, historico ou description',
  identifier: 'identificador, id ou identifier',
  name: 'nome, favorecido ou name',
  document: 'documento, cpf, cnpj, cpf_cnpj ou document',
};

// With their article, which "d" before them contracts: "da chave Pix", "do valor".
const FIELD_WORDS_PT: Readonly<Record<Field, string>> = {
  key: 'a chave Pix', keyType: 'o tipo de chave', amount: 'o valor', description: 'a descrição',
  identifier: 'o identificador', name: 'o nome', document: 'o documento (CPF/CNPJ)',
};

const XLSX_LIMITS_PT: Readonly<Record<keyof XlsxLimits, (max: number) => string>> = {
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

const ptBR: SheetWords = {
  columnTwice: (first, firstColumn, second, secondColumn, field) =>
    `as colunas "${first}" (coluna ${firstColumn}) e "${second}" (coluna ${secondColumn}) querem dizer ambas ${FIELD_WORDS_PT[field]}; deixe uma`,
  columnMissing: (field, found) =>
    `falta a coluna d${FIELD_WORDS_PT[field]}: chame uma de ${SHOWN_ALIASES_PT[field]} ` +
    `(a primeira linha deve ser o cabeçalho; ela tem ${found === '' ? 'nada' : found})`,
  sheetEmpty: 'a planilha está vazia: esperado um cabeçalho e uma linha por pagamento',
  noRows: 'a planilha tem cabeçalho mas nenhuma linha de pagamento',
  notXlsx: 'o arquivo não é uma pasta de trabalho XLSX (não é um arquivo ZIP, como são os .xlsx); salve-o na planilha como .xlsx, ou como CSV',
  damagedXlsx: (error) =>
    `o arquivo não pode ser lido como pasta de trabalho XLSX: está danificado ou incompleto (${error}); abra-o na planilha e salve de novo como .xlsx`,
  noWorksheet: 'a pasta de trabalho não tem nenhuma aba (é mesmo XLSX? salve-a na planilha como .xlsx)',
  noWorksheetNamed: (wanted, seen) => `a pasta de trabalho não tem aba chamada "${wanted}"; ela tem ${seen}`,
  xlsxTooLarge: (limit, max) =>
    `a pasta de trabalho é grande demais para ler como .xlsx: ${XLSX_LIMITS_PT[limit](max)}; salve a planilha como CSV e importe o arquivo CSV`,
  xlsxDtd: 'a pasta de trabalho contém uma DTD (<!DOCTYPE), que nenhuma planilha grava num arquivo .xlsx; abra-a na planilha e salve de novo como .xlsx, ou como CSV',
  mixedEncoding: (utf8, other) =>
    `o arquivo mistura duas codificações: a linha ${utf8.line} (byte ${utf8.byte}) tem "${utf8.text}" em UTF-8 (${utf8.hex}), ` +
    `a linha ${other.line} (byte ${other.byte}) tem o byte ${other.hex}, que não é UTF-8 ("${other.text}" em Windows-1252); ` +
    'nenhuma leitura acerta todos os nomes e documentos: salve a planilha inteira de novo como "CSV UTF-8"',
  amountEmpty: 'o valor está vazio',
  aboveItemLimit: (amount, limit) => `${amount} passa do limite por item de ${limit} (maxItemAmount)`,
  notUuid: (cell) => `"${cell}" não é um UUID (como 123e4567-e89b-42d3-a456-426614174000); deixe vazio e o paybatch gera um`,
  nilUuid: 'o UUID nulo não identifica um pagamento; deixe vazio e o paybatch gera um',
  identifierTwice: (first) => `o mesmo identificador da linha ${first}; cada pagamento precisa do seu`,
  documentNotKey: (document, kind, key) =>
    `${document} não confere com a chave ${kind} ${key}: uma chave ${kind} é o próprio ${kind} do favorecido`,
  descriptionTooLong: (length, max) => `tem ${length} caracteres; um Pix leva no máximo ${max}`,
  duplicateRow: (first) => `duplicada: igual à linha ${first} (mesma chave, valor e descrição)`,
  unknownKeyType: (cell) =>
    `tipo de chave desconhecido "${cell}": use cpf, cnpj, celular (ou telefone, phone), email ou aleatoria (ou evp, random)`,
  keyEmpty: 'a chave Pix está vazia',
  keyInvalid: 'não é uma chave Pix válida',
  scientificNotation: (key) =>
    `"${key}" é um número que a planilha converteu em notação científica; formate a coluna como texto e exporte de novo`,
  looksLike: (type, typeLabel) =>
    `; parece uma chave ${{ cpf: 'CPF', cnpj: 'CNPJ', phone: 'celular', email: 'e-mail', evp: 'aleatória (evp)' }[type]} válida: confira ${typeLabel}`,
  ambiguousKey: (typeLabel, hasTypeColumn, phoneWord) =>
    `ambígua: CPF ou celular; ${hasTypeColumn ? `preencha ${typeLabel}` : `acrescente uma coluna ${typeLabel}`} com cpf ou ${phoneWord}`,
  cellsMissing: (cells, named) =>
    `tem ${cells} células mas o cabeçalho tem ${named}; falta uma célula (ou um valor tem quebra de linha sem aspas)`,
  cellsUnquoted: (cells, header, delimiter) =>
    `tem ${cells} células mas o cabeçalho tem ${header}; um valor com ${delimiter === '\t' ? 'tabulação' : `"${delimiter}"`} precisa estar entre aspas duplas`,
  zerosLost: (digits, meant) =>
    `a planilha guarda ${digits} como número, o que tira os zeros à esquerda (${digits.length} dígitos; um CPF tem 11, um CNPJ 14)` +
    `${meant === null ? '' : `; com os zeros seria o ${meant.type} ${meant.value}`}: formate a coluna como Texto e digite de novo`,
};

/** The reasons of the sheet's row rules per locale. */
export const SHEET_WORDS: Readonly<Record<Locale, SheetWords>> = { en: { ...en, ...enHeader }, 'pt-BR': ptBR };
