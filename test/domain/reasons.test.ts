import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BILL_RETURN_REASONS,
  PIX_REASONS,
  classifyPixReason,
  isInstabilityReason,
  matchBillReturnReason,
  returnActionFor,
  type BillReturnReason,
} from '../../src/domain/reasons.js';

/** SPEC.md "Return of a bill payment", copied here on its own so the module cannot drift from the spec unnoticed. */
const SPEC_ROWS: ReadonlyArray<readonly [received: string, meaning: string]> = [
  ['12 - validity or due date expired, payment after due date not allowed', 'due date expired'],
  ['10 - payment not authorized, value differs from the one informed by the beneficiary', 'value differs from the central registry'],
  ['23 - bill cannot be received because it is settled', 'bill already paid'],
  ['23 - bill cannot be received because it is written off', 'bill already written off'],
  ['Occurrence AJ - invalid movement type', 'generic refusal; contact support'],
  ['Duplicate transfer by the receiving institution', 'bill already paid'],
  ['Bill received with a discount or rebate not foreseen on the bill', 'value differs from the central registry'],
  ['Bill payment differs from the centralized base', 'information differs from the central registry'],
  ['Barcode does not follow the specification', 'information differs from the central registry'],
  ['Bill does not exist in the centralized base', 'bill not found'],
  ['14 - bill blocked for payment', 'bill already written off'],
  ['276 - bill already received on this date', 'bill received within the same day'],
  ['NC - registered value differs in the registry or is not updated for payment', 'value differs from the central registry'],
  ['H6 - other reasons for withholding', 'generic refusal; contact support'],
  ['Invalid barcode', 'information differs from the central registry'],
  ['Return of fraudulent payment (documents with barcode)', 'payment identified as fraud'],
  ['Bill at a notary or protested', 'bill protested'],
  ['13 - payment deadline exceeded', 'payment deadline exceeded'],
  ['Already paid', 'bill already paid'],
  ['Bill differs from the centralized base', 'bill differs from the central registry'],
  ['2 - operation failed', 'generic refusal; contact support'],
];

const row = (received: string): BillReturnReason => {
  const found = BILL_RETURN_REASONS.find((r) => r.received === received);
  if (found === undefined) throw new Error(`no row ${received}`);
  return found;
};

/** "12 - text" -> ["12", "text"]; "Occurrence AJ - text" -> ["AJ", "text"]; "text" -> [undefined, "text"]. */
const split = (received: string): [string | undefined, string] => {
  const m = /^(?:Occurrence )?([A-Z0-9]{1,3}) - (.+)$/.exec(received);
  return m ? [m[1], m[2] ?? ''] : [undefined, received];
};

describe('BILL_RETURN_REASONS', () => {
  it('holds the 21 SPEC rows, in order and word for word', () => {
    expect(BILL_RETURN_REASONS.map((r) => [r.received, r.meaning])).toEqual(SPEC_ROWS);
  });

  it('gives one family per meaning, as kebab-case slugs', () => {
    const familyOf = new Map<string, string>();
    const meaningOf = new Map<string, string>();
    for (const r of BILL_RETURN_REASONS) {
      expect(r.family).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(familyOf.get(r.meaning) ?? r.family).toBe(r.family);
      expect(meaningOf.get(r.family) ?? r.meaning).toBe(r.meaning);
      familyOf.set(r.meaning, r.family);
      meaningOf.set(r.family, r.meaning);
    }
    expect(new Set(BILL_RETURN_REASONS.map((r) => r.family))).toEqual(
      new Set([
        'due-date-expired', 'value-differs', 'already-paid', 'written-off', 'generic-refusal', 'registry-mismatch',
        'not-found', 'same-day', 'fraud', 'protested', 'deadline-exceeded', 'bill-differs',
      ]),
    );
  });

  it.each([
    ['23 - bill cannot be received because it is settled', 'already-paid'],
    ['Duplicate transfer by the receiving institution', 'already-paid'],
    ['Already paid', 'already-paid'],
    ['14 - bill blocked for payment', 'written-off'],
    ['Bill differs from the centralized base', 'bill-differs'],
    ['Bill payment differs from the centralized base', 'registry-mismatch'],
  ])('%s is in family %s', (received, family) => {
    expect(row(received).family).toBe(family);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(BILL_RETURN_REASONS)).toBe(true);
    expect(Object.isFrozen(BILL_RETURN_REASONS[0])).toBe(true);
  });
});

describe('matchBillReturnReason', () => {
  it.each(SPEC_ROWS.map(([received]) => [received]))('matches %j to itself', (received) => {
    expect(matchBillReturnReason(received)).toBe(row(received));
  });

  /** Ways a provider may write a row: case, accents-free vs accented labels, spacing, punctuation, code formats. */
  const variants = (received: string): string[] => {
    const [code, text] = split(received);
    const out = [
      text,
      text.toUpperCase(),
      text.toLowerCase(),
      `  ${text.replace(/ /g, '   ')}  `,
      text.replace(/[,()]/g, ''),
      `${text}.`,
      text.replace(/ /g, '\t'),
      text.replace(/, /g, ','),
    ];
    if (code !== undefined) {
      out.push(
        `${code}-${text}`,
        `${code} – ${text}`,
        `${code} — ${text}`,
        `${code}: ${text}`,
        `${code} ${text}`,
        `${code.toLowerCase()} - ${text.toUpperCase()}`,
        `(${code}) ${text}`,
        `Ocorrência ${code} - ${text}`,
        `Ocorrencia ${code} ${text}`,
        `OCCURRENCE ${code}: ${text}`,
        `Código ${code} - ${text}`,
      );
    }
    return out;
  };

  it.each(SPEC_ROWS.flatMap(([received]) => variants(received).map((v) => [v, received])))(
    'matches %j to %j',
    (variant, received) => {
      expect(matchBillReturnReason(variant)).toBe(row(received));
    },
  );

  it.each([
    ['Occurrence AJ - invalid movement type', 'Ocorrência AJ – Invalid Movement Type'],
    ['Occurrence AJ - invalid movement type', 'ocorrência aj invalid movement type'],
    ['Bill at a notary or protested', 'Bill at a notáry or prótested'],
    ['Return of fraudulent payment (documents with barcode)', 'Return of fraudulent payment - documents with barcode'],
    ['Barcode does not follow the specification', 'Barcode does not follow the specification.'],
    ['Already paid', 'ALREADY-PAID'],
    ['Already paid', 'alreadypaid'],
    ['Invalid barcode', 'Invalid bar code'],
    ['NC - registered value differs in the registry or is not updated for payment', 'NC registered value differs in the registry or is not updated for payment'],
    ['276 - bill already received on this date', '276-bill already received on this date'],
  ])('matches %j written as %j', (received, variant) => {
    expect(matchBillReturnReason(variant)).toBe(row(received));
  });

  it('matches a row whose code is absent or formatted like another code', () => {
    expect(matchBillReturnReason('99 - Already paid')).toBe(row('Already paid'));
    expect(matchBillReturnReason('Occurrence ZZ - invalid movement type')).toBe(row('Occurrence AJ - invalid movement type'));
    expect(matchBillReturnReason('XY - Invalid barcode')).toBe(row('Invalid barcode'));
  });

  it('tells apart the two rows that share code 23 by their text', () => {
    expect(matchBillReturnReason('23 - bill cannot be received because it is settled')?.meaning).toBe('bill already paid');
    expect(matchBillReturnReason('23 - bill cannot be received because it is written off')?.meaning).toBe('bill already written off');
    expect(matchBillReturnReason('23-BILL CANNOT BE RECEIVED BECAUSE IT IS WRITTEN-OFF')?.family).toBe('written-off');
    expect(matchBillReturnReason('bill cannot be received because it is settled')?.family).toBe('already-paid');
    expect(matchBillReturnReason('23')).toBeNull();
    expect(matchBillReturnReason('23 - bill cannot be received')).toBeNull();
  });

  it('does not confuse rows that look alike', () => {
    expect(matchBillReturnReason('Bill differs from the centralized base')?.family).toBe('bill-differs');
    expect(matchBillReturnReason('Bill payment differs from the centralized base')?.family).toBe('registry-mismatch');
    expect(matchBillReturnReason('Bill does not exist in the centralized base')?.family).toBe('not-found');
    expect(matchBillReturnReason('Invalid barcode')?.family).toBe('registry-mismatch');
    expect(matchBillReturnReason('Already paid')?.family).toBe('already-paid');
    expect(matchBillReturnReason('276 - bill already received on this date')?.family).toBe('same-day');
    expect(matchBillReturnReason('13 - payment deadline exceeded')?.family).toBe('deadline-exceeded');
    expect(matchBillReturnReason('12 - validity or due date expired, payment after due date not allowed')?.family).toBe('due-date-expired');
  });

  it('lets a known code alone stand for its row, when no other row shares it', () => {
    expect(matchBillReturnReason('276')).toBe(row('276 - bill already received on this date'));
    expect(matchBillReturnReason(' h6 ')).toBe(row('H6 - other reasons for withholding'));
    expect(matchBillReturnReason('Occurrence AJ')).toBe(row('Occurrence AJ - invalid movement type'));
  });

  it.each([
    '',
    '   ',
    ' - ',
    'Not already paid',
    'Bill already paid twice',
    'payment deadline',
    'Bill differs',
    'operation failed successfully',
    '99',
    'Boleto pago',
    'Insufficient funds',
    'Bill payment differs from the centralized base, and more',
  ])('returns null for unknown text %j', (text) => {
    expect(matchBillReturnReason(text)).toBeNull();
  });

  it('returns a row of the table or null for any text, and never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (text) => {
        const found = matchBillReturnReason(text);
        expect(found === null || BILL_RETURN_REASONS.includes(found)).toBe(true);
      }),
    );
  });

  it('matches every row under random case and spacing', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SPEC_ROWS.map(([received]) => received)),
        fc.infiniteStream(fc.boolean()),
        fc.infiniteStream(fc.constantFrom('', ' ', '  ', '-', ' - ', '.', ',')),
        (received, upper, separators) => {
          const mangled = [...received]
            .map((ch) => (upper.next().value ? ch.toUpperCase() : ch.toLowerCase()))
            .map((ch) => (ch === ' ' ? (separators.next().value ?? ' ') || ' ' : ch))
            .join('');
          expect(matchBillReturnReason(mangled)).toBe(row(received));
        },
      ),
    );
  });
});

describe('PIX_REASONS and classifyPixReason', () => {
  it.each([
    ['AB03', 'rejection', 'reprocess'],
    ['AB09', 'rejection', 'reprocess'],
    ['AB11', 'rejection', 'reprocess'],
    ['ED05', 'rejection', 'reprocess'],
    ['AC03', 'rejection', 'final'],
    ['AC06', 'rejection', 'final'],
    ['AC07', 'rejection', 'final'],
    ['AC14', 'rejection', 'final'],
    ['AG03', 'rejection', 'final'],
    ['AM02', 'rejection', 'final'],
    ['AM04', 'rejection', 'final'],
    ['AM09', 'rejection', 'final'],
    ['BE01', 'rejection', 'final'],
    ['BE17', 'rejection', 'final'],
    ['CH11', 'rejection', 'final'],
    ['DS27', 'rejection', 'final'],
    ['RR04', 'rejection', 'final'],
    ['BE08', 'return', 'final'],
    ['FR01', 'return', 'final'],
    ['MD06', 'return', 'final'],
  ] as const)('%s is a %s, %s', (code, kind, action) => {
    const reason = classifyPixReason(code);
    expect(reason).toMatchObject({ code, kind, action });
    expect(reason?.description.length).toBeGreaterThan(10);
  });

  it('reprocesses only the instability of the scheme', () => {
    expect(PIX_REASONS.filter((r) => r.action === 'reprocess').map((r) => r.code).sort()).toEqual(['AB03', 'AB09', 'AB11', 'ED05']);
  });

  it('knows SL02 both as a rejection and as a return, and lets the caller choose', () => {
    expect(classifyPixReason('SL02')).toMatchObject({ code: 'SL02', kind: 'rejection', action: 'final' });
    expect(classifyPixReason('SL02', 'rejection')).toMatchObject({ kind: 'rejection' });
    expect(classifyPixReason('SL02', 'return')).toMatchObject({ kind: 'return', action: 'final' });
    expect(classifyPixReason('sl02', 'return')?.description).toMatch(/Pix Saque|Pix Troco/);
  });

  it('filters by kind', () => {
    expect(classifyPixReason('AB03', 'return')).toBeNull();
    expect(classifyPixReason('MD06', 'rejection')).toBeNull();
    expect(classifyPixReason('MD06', 'return')?.code).toBe('MD06');
  });

  it('is case-insensitive and trims', () => {
    expect(classifyPixReason(' ab03 ')).toBe(classifyPixReason('AB03'));
    expect(classifyPixReason('\tEd05\n')?.action).toBe('reprocess');
    expect(classifyPixReason('fr01')?.kind).toBe('return');
  });

  it.each(['', '   ', 'AB0', 'AB033', 'XX99', 'AB03 - timeout', 'AM05'])('returns null for unknown code %j', (code) => {
    expect(classifyPixReason(code)).toBeNull();
  });

  it('has one entry per code and kind, with upper-case four-character codes', () => {
    const keys = PIX_REASONS.map((r) => `${r.code}/${r.kind}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of PIX_REASONS) expect(r.code).toMatch(/^[A-Z0-9]{4}$/);
    expect(Object.isFrozen(PIX_REASONS)).toBe(true);
  });

  it('accepts as returns only the four codes of the SPI return message', () => {
    expect(PIX_REASONS.filter((r) => r.kind === 'return').map((r) => r.code).sort()).toEqual(['BE08', 'FR01', 'MD06', 'SL02']);
  });
});

describe('isInstabilityReason', () => {
  it.each<[string | null, boolean]>([
    // the instability codes, as words anywhere, any case
    ['AB03', true],
    ['ab03', true],
    ['AB03 - Settlement aborted', true],
    ['Erro AB09 no participante recebedor', true],
    ['errorCode=AB11', true],
    ['[ED05]', true],
    ['Falha: ed05.', true],
    ['AB03_TIMEOUT', true],
    ['AB03Timeout', true],
    // words of instability, English and Portuguese, accents and case ignored
    ['Instabilidade no SPI', true],
    ['INSTABILIDADE', true],
    ['instabilidades recorrentes', true],
    ['System instability', true],
    ['Indisponibilidade do PSP recebedor', true],
    ['Serviço indisponível', true],
    ['SERVICO INDISPONIVEL', true],
    ['Receiver unavailable', true],
    ['Temporary unavailability of the scheme', true],
    // "SPI" alone says nothing of instability: final reasons name it too (DS27).
    ['SPI', false],
    ['erro no spi', false],
    ['Instituição do recebedor não opera no SPI', false],
    ['SPI_ERROR', false],
    ['SPITimeout', true],
    ['timeout', true],
    ['Gateway Timeout', true],
    ['timeouts at the receiver', true],
    ['time out', true],
    ['TIME-OUT', true],
    ['time_out', true],
    ['Request timed out', true],
    ['Tempo esgotado', true],
    ['TEMPO_ESGOTADO na liquidação', true],
    // not instability
    [null, false],
    ['', false],
    ['   ', false],
    ['AC03 - invalid account', false],
    ['FR01', false],
    ['AB031', false],
    ['XAB03', false],
    ['AB0', false],
    ['Insufficient funds', false],
    ['Conta encerrada', false],
    ['stability restored', false],
    ['estabilidade', false],
    ['available', false],
    ['disponibilidade', false],
    ['hospital', false],
    ['spike in volume', false],
    ['spirit', false],
    ['the time outside', false],
    ['tempo', false],
    ['esgotado', false],
    ['overtime', false],
  ])('%j → %s', (reason, expected) => {
    expect(isInstabilityReason(reason)).toBe(expected);
  });

  it.each<[string, readonly string[], boolean]>([
    ['Em manutenção programada', ['manutenção'], true],
    ['EM MANUTENCAO', ['manutencao'], true],
    ['janela de manutenção', ['janela de manutencao'], true],
    ['JANELA_DE_MANUTENCAO', ['Janela de Manutenção'], true],
    ['Service overloaded', ['overloaded', 'busy'], true],
    ['Server busy', ['overloaded', 'busy'], true],
    ['manutenções', ['manutencao'], false],
    ['Insufficient funds', ['overloaded'], false],
    ['anything at all', ['', '  ', '-'], false],
    ['Timeout', [], true],
  ])('%j with extra words %j → %s', (reason, extra, expected) => {
    expect(isInstabilityReason(reason, extra)).toBe(expected);
  });
});

describe('returnActionFor', () => {
  it.each<[string | null, 'reprocess' | 'final']>([
    // a known code decides, as before
    ['AB03 - Settlement timed out', 'reprocess'],
    ['ab09', 'reprocess'],
    ['ED05: settlement failed', 'reprocess'],
    ['AB11', 'reprocess'],
    ['FR01 - Fraud', 'final'],
    ['MD06 - Refund requested by end customer', 'final'],
    ['BE08 - bank error', 'final'],
    ['AC03', 'final'],
    ['SL02', 'final'],
    ['ZZ99 - something new', 'final'],
    [null, 'final'],
    ['', 'final'],
    // the first known code wins over words
    ['DS27 - Participant not registered in the SPI or not yet operating', 'final'],
    ['FR01 - fraud suspected after SPI timeout', 'final'],
    ['Devolução MD06 por instabilidade', 'final'],
    ['Erro AB03 (AC03)', 'reprocess'],
    ['ZZ99 - AB03', 'reprocess'],
    ['ZZ99 - FR01', 'final'],
    // without a known code, words of instability reprocess
    ['timeout somewhere', 'reprocess'],
    ['Instabilidade no SPI', 'reprocess'],
    ['ZZ99 - SPI unavailable', 'reprocess'],
    ['Tempo esgotado', 'reprocess'],
    ['Insufficient funds', 'final'],
    ['Devolvido a pedido do recebedor', 'final'],
  ])('%j → %s', (reason, action) => {
    expect(returnActionFor(reason)).toBe(action);
  });

  it.each<[string, readonly string[], 'reprocess' | 'final']>([
    ['Em manutenção', ['manutencao'], 'reprocess'],
    ['Em manutenção', [], 'final'],
    ['FR01 - manutenção', ['manutencao'], 'final'],
  ])('%j with extra words %j → %s', (reason, extra, action) => {
    expect(returnActionFor(reason, extra)).toBe(action);
  });
});
