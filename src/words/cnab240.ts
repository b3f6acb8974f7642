import { formatBRL } from '../domain/money.js';
import type { Cnab240FieldName, Cnab240Reason } from '../domain/sheet-reason.js';
import type { Locale } from './locale.js';
import { sayValidation } from './validation.js';

/** One sentence per CNAB 240 reason (a remittance refused as a whole): a code without its sentence is a type error. */
type Sentences = { readonly [C in Cnab240Reason['code']]: (r: Extract<Cnab240Reason, { code: C }>) => string };

const FIELDS_EN: Readonly<Record<Cnab240FieldName, string>> = {
  recordType: 'record type', bank: 'bank code', lot: 'lot number', segment: 'segment', direction: 'remittance/return code',
  version: 'layout version', companyDoc: "company's CPF/CNPJ", companyDocType: "company's document type", service: 'service type',
  form: 'payment form', payeeDoc: "payee's CPF/CNPJ", payeeDocType: "payee's document type", keyKind: 'Pix key type',
  pixKey: 'Pix key', amount: 'amount', paymentDate: 'payment date', yourNumber: '"seu número"', barcode: 'bar code',
  recordCount: 'record count', amountSum: 'sum of amounts', lotCount: 'lot count', code: 'record code', sequence: 'record sequence',
};

const FIELDS_PT: Readonly<Record<Cnab240FieldName, string>> = {
  recordType: 'tipo de registro', bank: 'código do banco', lot: 'número do lote', segment: 'segmento', direction: 'código remessa/retorno',
  version: 'versão do layout', companyDoc: 'CPF/CNPJ da empresa', companyDocType: 'tipo de inscrição da empresa', service: 'tipo de serviço',
  form: 'forma de lançamento', payeeDoc: 'CPF/CNPJ do favorecido', payeeDocType: 'tipo de inscrição do favorecido', keyKind: 'tipo de chave Pix',
  pixKey: 'chave Pix', amount: 'valor', paymentDate: 'data do pagamento', yourNumber: '"seu número"', barcode: 'código de barras',
  recordCount: 'quantidade de registros', amountSum: 'somatório dos valores', lotCount: 'quantidade de lotes', code: 'código do registro', sequence: 'número do registro',
};

const RECORDS_PT: Readonly<Record<string, string>> = {
  'file header': 'header de arquivo', 'file trailer': 'trailer de arquivo', 'lot trailer': 'trailer de lote',
  'file trailer or lot header': 'header de lote ou trailer de arquivo', 'lot trailer or detail': 'detalhe ou trailer de lote',
  'end of file': 'fim do arquivo', A: 'segmento A', B: 'segmento B',
};

const en: Sentences = {
  cnab_line_length: (r) => `the line has ${r.length} positions; every line of a CNAB 240 file has 240`,
  cnab_record_unexpected: (r) => `record type "${r.found}" where a ${r.expected} was expected`,
  cnab_bank_unknown: (r) => `bank ${r.bank} has no CNAB 240 layout in paybatch; pin one with the cnabLayout setting if the bank follows it`,
  cnab_bank_differs: (r) => `bank code ${r.bank}, but the file header says ${r.fileBank}`,
  cnab_version_unknown: (r) =>
    `layout version ${r.version} is not one the ${r.layout} layout was written from (${r.known.join(', ')}); pin the layout with the cnabLayout setting once you have checked the bank's manual`,
  cnab_not_remittance: (r) => `the remittance/return code is "${r.direction}": only a remittance (1) can be imported`,
  cnab_not_number: (r) => `the ${FIELDS_EN[r.field]} "${r.value}" is not a number`,
  cnab_date_invalid: (r) => `the ${FIELDS_EN[r.field]} "${r.value}" is not a date (DDMMYYYY)`,
  cnab_document_invalid: (r) => `the ${FIELDS_EN[r.field]} "${r.value}" is not valid: ${sayValidation(r.reason, 'en')}`,
  cnab_form_unknown: (r) => `payment form ${r.form} (service ${r.service}) is not one paybatch pays`,
  cnab_segment_unexpected: (r) => `segment ${r.segment} in a lot of payment form ${r.form}`,
  cnab_key_kind_unknown: (r) => `Pix key type "${r.value}" is unknown`,
  cnab_pix_key_invalid: (r) => `the Pix key "${r.key}" is not a valid ${r.keyType} key: ${sayValidation(r.reason, 'en')}`,
  cnab_amount_zero: () => 'the amount is zero',
  cnab_lot_number: (r) => `lot number ${r.written}, but this is lot ${r.expected}`,
  cnab_sequence: (r) => `record number ${r.written} in its lot, where ${r.expected} comes (a record missing, repeated or out of order)`,
  cnab_operation: (r) => `operation "${r.operation}": a payment remittance's lots are credits (C)`,
  cnab_lot_records: (r) => `the lot trailer counts ${r.written} records; the lot has ${r.counted} (lot not accepted)`,
  cnab_lot_sum: (r) => `the lot trailer sums ${formatBRL(r.writtenCents)}; its details add up to ${formatBRL(r.countedCents)} (lot not accepted)`,
  cnab_file_lots: (r) => `the file trailer counts ${r.written} lots; the file has ${r.counted}`,
  cnab_file_records: (r) => `the file trailer counts ${r.written} records; the file has ${r.counted}`,
  cnab_file_unfinished: (r) => `the file ends where a ${r.expected} was expected`,
  cnab_your_number_twice: (r) => `"seu número" ${r.yourNumber} is also on line ${r.firstLine}; each title needs its own`,
  cnab_your_number_missing: () => 'the "seu número" is blank: paybatch knows a title by it, so that it is paid only once',
  cnab_date_past: (r) => `the payment date ${r.date} has passed (today is ${r.today}); the ERP must write a new date`,
  cnab_bills_only: (r) => `the remittance holds only bills (${r.bills} in segment J): pay them with 'paybatch boleto pay --file'`,
  cnab_no_bills: () => "the remittance has no bills (segment J): import its Pix titles with 'paybatch import'",
  cnab_account_title: (r) =>
    `a payment to bank account data (payment form ${r.form}${r.form === '45' ? ', Pix initiated by account data' : ''}): sent only to a provider that takes a Pix without a key ('paybatch config set pixByAccount bank-code', if its documentation says so); otherwise have the ERP send the payee's Pix key in segment B`,
  cnab_account_invalid: (r) => `the payee's account "${r.value}" cannot be read (bank: 3 digits; branch: 4 digits; account: digits and one check character)`,
  cnab_account_no_document: () => "a Pix by account data needs the payee's CPF or CNPJ, and the title has none",
};

const ptBR: Sentences = {
  cnab_line_length: (r) => `a linha tem ${r.length} posições; toda linha de um arquivo CNAB 240 tem 240`,
  cnab_record_unexpected: (r) => `tipo de registro "${r.found}" onde se esperava ${RECORDS_PT[r.expected] ?? r.expected}`,
  cnab_bank_unknown: (r) => `o banco ${r.bank} não tem layout CNAB 240 no paybatch; fixe um com a configuração cnabLayout se o banco o segue`,
  cnab_bank_differs: (r) => `código do banco ${r.bank}, mas o header do arquivo diz ${r.fileBank}`,
  cnab_version_unknown: (r) =>
    `a versão de layout ${r.version} não é uma das que o layout ${r.layout} cobre (${r.known.join(', ')}); fixe o layout com a configuração cnabLayout depois de conferir o manual do banco`,
  cnab_not_remittance: (r) => `o código remessa/retorno é "${r.direction}": só uma remessa (1) pode ser importada`,
  cnab_not_number: (r) => `${FIELDS_PT[r.field]} "${r.value}" não é um número`,
  cnab_date_invalid: (r) => `${FIELDS_PT[r.field]} "${r.value}" não é uma data (DDMMAAAA)`,
  cnab_document_invalid: (r) => `${FIELDS_PT[r.field]} "${r.value}" não é válido: ${sayValidation(r.reason, 'pt-BR')}`,
  cnab_form_unknown: (r) => `a forma de lançamento ${r.form} (serviço ${r.service}) não é uma que o paybatch paga`,
  cnab_segment_unexpected: (r) => `segmento ${r.segment} num lote de forma de lançamento ${r.form}`,
  cnab_key_kind_unknown: (r) => `o tipo de chave Pix "${r.value}" é desconhecido`,
  cnab_pix_key_invalid: (r) => `a chave Pix "${r.key}" não é uma chave ${r.keyType} válida: ${sayValidation(r.reason, 'pt-BR')}`,
  cnab_amount_zero: () => 'o valor é zero',
  cnab_lot_number: (r) => `lote número ${r.written}, mas este é o lote ${r.expected}`,
  cnab_sequence: (r) => `registro número ${r.written} no lote, onde vem o ${r.expected} (um registro faltando, repetido ou fora de ordem)`,
  cnab_operation: (r) => `operação "${r.operation}": os lotes de uma remessa de pagamentos são de crédito (C)`,
  cnab_lot_records: (r) => `o trailer de lote conta ${r.written} registros; o lote tem ${r.counted} (lote não aceito)`,
  cnab_lot_sum: (r) => `o trailer de lote soma ${formatBRL(r.writtenCents)}; os detalhes somam ${formatBRL(r.countedCents)} (lote não aceito)`,
  cnab_file_lots: (r) => `o trailer de arquivo conta ${r.written} lotes; o arquivo tem ${r.counted}`,
  cnab_file_records: (r) => `o trailer de arquivo conta ${r.written} registros; o arquivo tem ${r.counted}`,
  cnab_file_unfinished: (r) => `o arquivo termina onde se esperava ${RECORDS_PT[r.expected] ?? r.expected}`,
  cnab_your_number_twice: (r) => `o "seu número" ${r.yourNumber} também está na linha ${r.firstLine}; cada título precisa do seu`,
  cnab_your_number_missing: () => 'o "seu número" está em branco: o paybatch reconhece o título por ele, para pagá-lo uma vez só',
  cnab_date_past: (r) => `a data de pagamento ${r.date} já passou (hoje é ${r.today}); o ERP precisa gravar uma nova data`,
  cnab_bills_only: (r) => `a remessa só tem boletos (${r.bills} no segmento J): pague-os com 'paybatch boleto pay --file'`,
  cnab_no_bills: () => "a remessa não tem boletos (segmento J): importe seus títulos Pix com 'paybatch import'",
  cnab_account_title: (r) =>
    `um pagamento por dados bancários (forma de lançamento ${r.form}${r.form === '45' ? ', Pix iniciado por dados bancários' : ''}): só vai a um provedor que aceita Pix sem chave ('paybatch config set pixByAccount bank-code', se a documentação dele diz isso); senão, faça o ERP enviar a chave Pix do favorecido no segmento B`,
  cnab_account_invalid: (r) => `a conta do favorecido "${r.value}" não pode ser lida (banco: 3 dígitos; agência: 4 dígitos; conta: dígitos e um dígito verificador)`,
  cnab_account_no_document: () => 'um Pix por dados bancários precisa do CPF ou CNPJ do favorecido, e o título não tem',
};

/** The sentences of a remittance's reasons per language (spread into the sheet's catalog, src/words/sheet.ts). */
export const CNAB_SENTENCES: Readonly<Record<Locale, Sentences>> = { en, 'pt-BR': ptBR };
