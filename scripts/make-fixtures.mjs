// Generates the sheets in fixtures/: `node scripts/make-fixtures.mjs`. Deterministic (seeded), so the committed
// files are exactly what this script writes; test/sheet/fixtures.test.ts checks that they are in step.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// The sandbox answers every key with a deterministic owner; the sheet names that owner so imports on the embedded
// sandbox show no name warnings (run `npm run build` before this script).
import { checkPixKey, parsePixKeyType } from '../dist/domain/pix-key.js';
import { destinationForKey } from '../dist/sandbox/key-directory.js';

function sandboxOwner(key, typeWord) {
  const type = parsePixKeyType(typeWord);
  return destinationForKey(checkPixKey(key, type).normalized, type).name;
}

/** mulberry32: a tiny seeded PRNG, so the fixtures (and the bench's sheets) never change unless this script does. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mod11(chars, weights) {
  let sum = 0;
  for (let i = 0; i < chars.length; i++) sum += (chars.charCodeAt(chars.length - 1 - i) - 48) * weights(i);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}
const cpfWeights = (i) => i + 2;
const cnpjWeights = (i) => 2 + (i % 8);

export function cpfFrom(base9) {
  const d1 = mod11(base9, cpfWeights);
  return base9 + d1 + mod11(base9 + d1, cpfWeights);
}
export function cnpjFrom(base12) {
  const d1 = mod11(base12, cnpjWeights);
  return base12 + d1 + mod11(base12 + d1, cnpjWeights);
}
const maskCpf = (d) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
const maskCnpj = (d) => `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;

const FIRST = [
  'João', 'Maria', 'José', 'Ana', 'Antônio', 'Francisca', 'Carlos', 'Conceição', 'Paulo', 'Adriana', 'Lúcia',
  'Sebastião', 'Márcia', 'Luís', 'Fátima', 'André', 'Patrícia', 'Mônica', 'Cláudio', 'Simone', 'Fábio', 'Letícia',
  'Rogério', 'Vânia', 'Inês', 'Raimundo', 'Luíza', 'Sérgio', 'Bárbara', 'Otávio', 'Débora', 'Thaís',
];
const LAST = [
  'Silva', 'Santos', 'Oliveira', 'Souza', 'Conceição', 'Araújo', 'Gonçalves', 'Pereira', 'Lima', 'Gomes',
  'Ribeiro', 'Carvalho', 'Damião', 'Magalhães', 'Brandão', 'Assunção', 'Nóbrega', 'Falcão', 'Simões', 'Guimarães',
];
const COMPANIES = [
  'Padaria São José Ltda', 'Construtora Horizonte S.A.', 'Açougue Boi Gordo ME', 'Papelaria Estrela Ltda',
  'Transportes Irmãos Araújo Ltda', 'Clínica Saúde & Vida Ltda', 'Gráfica Pinheiros Eireli', 'Mecânica Três Irmãos ME',
  'Distribuidora Ipê Ltda', 'Serralheria Aço Forte ME',
];
const DESCRIPTIONS = [
  'Pagamento de serviços - março/2025', 'Comissão de vendas', 'Reembolso de despesas', 'Diárias de obra',
  'Frete São Paulo/Campinas', 'Prestação de serviços de limpeza', 'Ajuda de custo', 'Manutenção elétrica',
  'Honorários', 'Bonificação trimestral', 'Aluguel de equipamento', 'Serviço de jardinagem',
  'Reembolso; combustível e pedágio', 'Adiantamento quinzenal', '',
];
const DOMAINS = ['gmail.com', 'hotmail.com', 'yahoo.com.br', 'outlook.com', 'uol.com.br', 'bol.com.br', 'terra.com.br'];
const AREA_CODES = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '19', '27', '48', '62', '92'];

const fold = (s) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

function cell(value, delimiter) {
  return /["\n\r]/.test(value) || value.includes(delimiter) ? `"${value.replaceAll('"', '""')}"` : value;
}
const line = (cells, delimiter) => cells.map((c) => cell(c, delimiter)).join(delimiter);

function brl(cents, grouped) {
  const whole = String(Math.floor(cents / 100));
  const fraction = String(cents % 100).padStart(2, '0');
  return `${grouped ? whole.replace(/\B(?=(\d{3})+$)/g, '.') : whole},${fraction}`;
}

/** Windows-1252 bytes of text made only of Latin-1 letters (the same bytes there, outside 0x80–0x9F). */
function windows1252(text) {
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (code > 0xff || (code >= 0x80 && code <= 0x9f)) throw new Error(`not encodable here: ${ch}`);
  }
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

/** About 300 valid payments as a Brazilian finance team exports them from Excel. */
function examplesSheet() {
  const random = prng(20250314);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const digits = (n) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
  const used = new Set();
  const fresh = (make) => {
    for (;;) {
      const key = make();
      // The sandbox treats keys ending in 0000 and e-mails starting with "nobody" as unknown.
      if (used.has(key) || /0000$/.test(key.replace(/\D/g, '')) || key.startsWith('nobody')) continue;
      used.add(key);
      return key;
    }
  };
  const person = () => `${pick(FIRST)} ${pick(LAST)}${random() < 0.4 ? ` ${pick(LAST)}` : ''}`;

  const header = ['Nome', 'CPF/CNPJ', 'Chave Pix', 'Tipo de chave', 'Valor (R$)', 'Descrição'];
  const rows = [];
  for (let i = 0; i < 300; i++) {
    const r = random();
    let name;
    let doc = '';
    let key;
    let type;
    if (i === 17) {
      // The new alphanumeric CNPJ (from July 2026), as a key and as the document.
      name = 'Cooperativa Nova Aliança';
      key = fresh(() => maskCnpj(cnpjFrom('12ABC34501DE')));
      doc = key;
      type = 'CNPJ';
    } else if (r < 0.35) {
      name = person();
      const cpf = fresh(() => cpfFrom(digits(9)));
      key = random() < 0.5 ? maskCpf(cpf) : cpf;
      doc = maskCpf(cpf);
      type = pick(['CPF', 'cpf']);
    } else if (r < 0.6) {
      name = person();
      const [first, last] = [fold(name.split(' ')[0]), fold(name.split(' ').at(-1))];
      key = fresh(() => `${first}${pick(['.', '_', ''])}${last}${random() < 0.5 ? Math.floor(random() * 90 + 10) : ''}@${pick(DOMAINS)}`);
      type = pick(['E-mail', 'email']);
    } else if (r < 0.8) {
      name = person();
      key = fresh(() => {
        const area = pick(AREA_CODES);
        const sub = `9${digits(4)}-${digits(4)}`;
        return random() < 0.7 ? `(${area}) ${sub}` : `+55 ${area} ${sub}`;
      });
      type = pick(['Celular', 'celular', 'Telefone']);
    } else if (r < 0.95) {
      name = person();
      key = fresh(() => {
        const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
        hex[12] = '4';
        hex[16] = '89ab'[Math.floor(random() * 4)];
        const h = hex.join('');
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
      });
      type = pick(['Aleatória', 'Chave aleatória', 'EVP']);
    } else {
      name = pick(COMPANIES);
      const cnpj = fresh(() => cnpjFrom(`${digits(8)}0001`));
      key = maskCnpj(cnpj);
      doc = key;
      type = 'CNPJ';
    }
    // R$ 50,00 to R$ 5.000,00, mostly round-ish values as people pay them.
    const cents = random() < 0.6 ? (50 + Math.floor(random() * 4951)) * 100 : 5000 + Math.floor(random() * 495001);
    let description = pick(DESCRIPTIONS);
    if (i === 42) description = 'Diárias da obra\nsábado e domingo';
    rows.push([i === 17 ? name : sandboxOwner(key, type), doc, key, type, brl(cents, random() < 0.7), description]);
  }
  const text = [header, ...rows].map((r) => line(r, ';')).join('\r\n') + '\r\n';
  return windows1252(text);
}

/** A dozen rows with known errors on known lines; test/sheet/fixtures.test.ts lists them. */
function errorsSheet() {
  const cpf = maskCpf(cpfFrom('529982247'));
  const ambiguous = cpfFrom('119876543'); // a valid CPF that is also the mobile number (11) 98765-4374
  const rows = [
    /* 1 */ 'chave;tipo_chave;valor;descricao;identificador;nome;documento',
    /* 2 */ `${cpf};cpf;150,00;Salário;3f2b8c4e-5d6a-4b7c-8d9e-0f1a2b3c4d5e;Maria da Conceição;${cpf}`,
    /* 3 */ '123.456.789-00;cpf;200,00;Salário;;José Araújo;',
    /* 4 */ `${ambiguous};;200,00;Comissão;;Ana Lima;`,
    /* 5 */ 'carlos.souza@exemplo.com.br;email;1.234;Reembolso;;Carlos Souza;',
    /* 6 */ 'lucia.gomes@exemplo.com.br;email;-50,00;Reembolso;;Lúcia Gomes;',
    /* 7 */ 'ana.souza@exemplo.com.br;email;300,00;Reembolso;;Ana Souza;',
    /* 8 */ 'ana.souza@exemplo.com.br;email;300,00;reembolso;;Ana Souza;',
    /* 9 */ 'paulo.lima@exemplo.com.br;email;120,00;Frete;abc-123;Paulo Lima;',
    /* 10 */ '',
    /* 11 */ '(21) 99876-5432;celular;75.000,00;Compra de veículo;;Sérgio Brandão;',
    /* 12 */ 'fabio.ribeiro@exemplo.com.br;email;80,00;Frete;;Fábio Ribeiro;11.222.333/0001-00',
    /* 13 */ 'debora.gomes@exemplo.com.br;pix;90,00;Frete;;Débora Gomes;',
    /* 14 */ 'otavio.silva@exemplo.com.br;email;95,00;Frete;3F2B8C4E-5D6A-4B7C-8D9E-0F1A2B3C4D5E;Otávio Silva;',
    /* 15 */ 'maria.lima@exemplo.com.br;email;10,00',
    /* 16 */ '7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f;aleatória;1.500,00;"Serviços; parcela 1',
    /* 17 */ 'pedreiro e ajudante";;Gráfica Pinheiros Eireli;',
    /* 18 */ '(11) 98765-4321;celular;250,50;Diárias;;Luís Falcão;',
    /* 19 */ ';cpf;10,00;Sem chave;;Inês Simões;',
  ];
  return new Uint8Array(Buffer.from('\uFEFF' + rows.join('\r\n') + '\r\n', 'utf8'));
}

/** A short English sheet with commas, international decimals and English key-type words. */
function englishSheet() {
  const cpf = maskCpf(cpfFrom('390533447'));
  const cnpj = maskCnpj(cnpjFrom('112223330001'));
  const quote = (name) => (name.includes(',') ? `"${name}"` : name);
  const row = (key, type, rest) => `${key},${type},${rest.replace('{owner}', quote(sandboxOwner(key.replace(/^"|"$/g, ''), type)))}`;
  const rows = [
    'key,key_type,amount,description,identifier,name,document',
    row(cpf, 'cpf', `1250.00,March salary,,{owner},${cpf}`),
    row('peter.smith@example.com', 'email', '"1,234.56","Consulting, March",,{owner},'),
    row('+55 11 98123-4567', 'phone', '89.90,Freelance design,,{owner},'),
    row('5b0e3c1a-9f2d-4e7b-a6c8-1d2e3f4a5b6c', 'random', '2000,Equipment rental,,{owner},'),
    row(cnpj, 'cnpj', `4999.99,Invoice 1234,9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d,{owner},${cnpj}`),
    row('julia.pereira@example.com', 'e-mail', '0.50,Refund,,{owner},'),
  ];
  return new Uint8Array(Buffer.from(rows.join('\n') + '\n', 'utf8'));
}

/** Every fixture file name and its bytes. */
export function buildFixtures() {
  return {
    'pagamentos-exemplo.csv': examplesSheet(),
    'pagamentos-com-erros.csv': errorsSheet(),
    'payments-en.csv': englishSheet(),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = new URL('../fixtures/', import.meta.url);
  for (const [name, bytes] of Object.entries(buildFixtures())) {
    writeFileSync(new URL(name, dir), bytes);
    console.log(`fixtures/${name}: ${bytes.length} bytes`);
  }
}
