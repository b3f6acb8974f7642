import { csvLine, UTF8_BOM } from './csv-text.js';
import { SHEET_FIELDS, templateHeader } from './headers.js';

// Examples that pass every offline rule: a CPF key with its document, an e-mail, a mobile number, a random key and
// a CNPJ key. Only the key and the amount are required. A document is given only where the key is the document
// itself: any other key's owner is whoever the provider says, and the embedded sandbox makes one up.
const EXAMPLES: Record<'pt' | 'en', readonly (readonly string[])[]> = {
  pt: [
    ['529.982.247-25', 'cpf', '1.250,00', 'Salário março/2025', '', 'Maria da Conceição', '529.982.247-25'],
    ['joao.silva@exemplo.com.br', 'email', '350,75', 'Reembolso de despesas', '', 'João Silva', ''],
    ['(11) 98765-4321', 'celular', '89,90', '', '', '', ''],
    ['123e4567-e89b-42d3-a456-426614174001', 'aleatoria', '2.000,00', 'Serviços de manutenção', '7d9f1c2e-4b6a-4f8e-9c3d-2a1b0e5f6d71', 'Oficina Boa Vista Ltda', ''],
    ['11.222.333/0001-81', 'cnpj', '4.999,99', 'Nota fiscal 1234', '', 'Oficina Boa Vista Ltda', '11.222.333/0001-81'],
  ],
  en: [
    ['529.982.247-25', 'cpf', '1250.00', 'March 2025 salary', '', 'Maria da Conceição', '529.982.247-25'],
    ['joao.silva@example.com', 'email', '350.75', 'Expense refund', '', 'João Silva', ''],
    ['55 11 98765-4321', 'phone', '89.90', '', '', '', ''],
    ['123e4567-e89b-42d3-a456-426614174001', 'random', '2000.00', 'Maintenance services', '7d9f1c2e-4b6a-4f8e-9c3d-2a1b0e5f6d71', 'Oficina Boa Vista Ltda', ''],
    ['11.222.333/0001-81', 'cnpj', '4999.99', 'Invoice 1234', '', 'Oficina Boa Vista Ltda', '11.222.333/0001-81'],
  ],
};

/**
 * A ready sheet with every column and a few example rows: Portuguese with `;` and `1.234,56` amounts, or English
 * with `,` and `1234.56`. Starts with a UTF-8 BOM and uses CRLF, so `paybatch template > sheet.csv` opens in Excel
 * with accents intact.
 */
export function templateCsv(lang: 'pt' | 'en'): string {
  const delimiter = lang === 'pt' ? ';' : ',';
  const lines = [
    csvLine(SHEET_FIELDS.map((f) => templateHeader(f, lang)), delimiter),
    ...EXAMPLES[lang].map((row) => csvLine(row, delimiter)),
  ];
  return UTF8_BOM + lines.join('\r\n') + '\r\n';
}
