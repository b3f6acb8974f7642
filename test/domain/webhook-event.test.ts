import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWebhookEvent } from '../../src/domain/webhook-event.js';

/** A Pix payment event as SPEC.md describes it (and as the sandbox sends it). */
function pixBody(payload: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    serviceId: 4821,
    payload: {
      id: 'pix_01HZX7',
      eventId: 'evt_01HZX8',
      serviceId: 4821,
      transactionId: 'tx_1',
      endToEndId: 'E12345678202401151230abcdefghijk',
      identifier: '5f0c3f8e-1b2a-4c3d-9e8f-0a1b2c3d4e5f',
      amount: 1050,
      fee: 0,
      balanceAfter: 99_000,
      title: 'Pix sent',
      subtitle: 'R$ 10,50 to Maria',
      description: 'May rent',
      timestamp: '1714000000',
      eventTimestamp: '1714000000',
      type: 'output',
      category: 'pix_out',
      transactionStatus: 'approved',
      transactionType: 'debit',
      transactionAccepted: true,
      isRefund: false,
      from: { key: 'a', name: 'Payer' },
      to: { key: 'b', name: 'Maria' },
      delayNotify: null,
      deviceType: null,
      txId: null,
      reason: null,
      extraInfo: null,
      ...payload,
    },
  };
}

function callbackBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    serviceId: '4821',
    eventId: 'evt_cb_1',
    type: 'bill_payment',
    category: 'bill_return',
    timestamp: '1714000000',
    title: 'Bill payment returned',
    subtitle: 'R$ 10,50 back from Acme',
    detail: { transactionId: 'tx_9', reason: '13 - payment deadline exceeded' },
    deviceType: 'api',
    ...fields,
  };
}

describe('parseWebhookEvent: Pix payment events', () => {
  it('reads the fields the daemon acts on', () => {
    const body = pixBody();
    expect(parseWebhookEvent(body)).toEqual({
      ok: true,
      event: {
        kind: 'pix',
        eventId: 'evt_01HZX8',
        pixId: 'pix_01HZX7',
        identifier: '5f0c3f8e-1b2a-4c3d-9e8f-0a1b2c3d4e5f',
        amountCents: 1050,
        endToEndId: 'E12345678202401151230abcdefghijk',
        isRefund: false,
        accepted: true,
        transactionStatus: 'approved',
        reason: null,
        timestamp: 1714000000,
        balanceAfterCents: 99_000,
        raw: body,
      },
    });
  });

  it("reads the payer's balance after the movement in the event's unit, and never refuses an event for it", () => {
    expect(parseWebhookEvent(pixBody({ balanceAfter: '12345.60' }))).toMatchObject({ ok: true, event: { balanceAfterCents: 1234560 } });
    expect(parseWebhookEvent(pixBody({ amount: 10.5, balanceAfter: 9989.5 }), { amountUnit: 'reais' })).toMatchObject({ ok: true, event: { balanceAfterCents: 998950 } });
    const unreadable = parseWebhookEvent(pixBody({ balanceAfter: 'lots' }));
    expect(unreadable.ok).toBe(true);
    expect(unreadable.ok && 'balanceAfterCents' in unreadable.event).toBe(false);
  });

  it('reads a refund for instability with its reason text', () => {
    const parsed = parseWebhookEvent(pixBody({ isRefund: true, reason: 'AB03 - Timeout in the settlement', type: 'input' }));
    expect(parsed).toMatchObject({ ok: true, event: { kind: 'pix', isRefund: true, reason: 'AB03 - Timeout in the settlement' } });
  });

  it('reads a rejection', () => {
    const parsed = parseWebhookEvent(pixBody({ transactionAccepted: false, transactionStatus: 'rejected', reason: 'AC03 - invalid account' }));
    expect(parsed).toMatchObject({ ok: true, event: { accepted: false, transactionStatus: 'rejected', reason: 'AC03 - invalid account' } });
  });

  it.each([
    ['a numeric timestamp', { timestamp: 1714000000 }, { timestamp: 1714000000 }],
    ['no timestamp', { timestamp: undefined }, { timestamp: null }],
    ['a null timestamp', { timestamp: null }, { timestamp: null }],
    ['a null endToEndId', { endToEndId: null }, { endToEndId: null }],
    ['no endToEndId', { endToEndId: undefined }, { endToEndId: null }],
    ['an empty reason', { reason: '' }, { reason: null }],
    ['an amount of zero', { amount: 0 }, { amountCents: 0 }],
    ['unknown extra fields', { somethingNew: { a: 1 } }, { kind: 'pix' }],
  ])('tolerates %s', (_name, payload, expected) => {
    expect(parseWebhookEvent(pixBody(payload))).toMatchObject({ ok: true, event: expected });
  });

  it.each([
    // amount as sent, the eventAmountUnit setting → centavos
    [1050, undefined, 1050],
    ['1050', undefined, 1050],
    ['110.07', undefined, 11007],
    ['110.00', undefined, 11000],
    ['110.07', 'cents', 11007],
    ['110.0', 'reais', 11000],
    [110.07, 'reais', 11007],
    [110, 'reais', 11000],
    ['110', 'reais', 11000],
  ] as const)('reads the amount %j (eventAmountUnit %s) as %i centavos: decimal text is reais whatever the setting', (amount, unit, cents) => {
    const parsed = parseWebhookEvent(pixBody({ amount }), unit === undefined ? {} : { amountUnit: unit });
    expect(parsed.ok && parsed.event.kind === 'pix' && parsed.event.amountCents).toBe(cents);
  });

  it.each([
    ['a code field and a text', { reason: null, errorCode: 'AB03', errorMessage: 'Settlement interrupted' }, {}, 'AB03 - Settlement interrupted'],
    ['a code alone', { reason: null, reasonCode: 'AC06' }, {}, 'AC06'],
    ['a reason that already names its code', { reason: 'AB09 - error at the recipient', errorCode: 'AB09' }, {}, 'AB09 - error at the recipient'],
    ['fields the profile names', { reason: null, motivo: 'AM04', texto: 'Saldo insuficiente' }, { reasonCodeFields: ['motivo'], reasonMessageFields: ['texto'] }, 'AM04 - Saldo insuficiente'],
    ['no reason anywhere', { reason: null }, {}, null],
  ] as const)('reads the reason from %s', (_label, payload, reading, reason) => {
    const parsed = parseWebhookEvent(pixBody(payload), reading);
    expect(parsed.ok && parsed.event.kind === 'pix' && parsed.event.reason).toBe(reason);
  });

  it.each([
    ['no eventId', { eventId: undefined }, 'payload.eventId must be a non-empty string'],
    ['an empty eventId', { eventId: '  ' }, 'payload.eventId must be a non-empty string'],
    ['a numeric eventId', { eventId: 12 }, 'payload.eventId must be a non-empty string'],
    ['an overlong eventId', { eventId: 'e'.repeat(257) }, 'payload.eventId is longer than 256 characters'],
    ['no identifier', { identifier: undefined }, 'payload.identifier must be a non-empty string'],
    ['a null identifier', { identifier: null }, 'payload.identifier must be a non-empty string'],
    ['no id', { id: undefined }, 'payload.id must be a non-empty string'],
    ['a fractional number of centavos', { amount: 10.5 }, 'payload.amount must be a whole number of centavos, unless eventAmountUnit is reais'],
    ['a negative amount', { amount: -1 }, 'payload.amount must be a non-negative number, or reais as text with a decimal point'],
    ['an amount in words', { amount: 'R$ 10,50' }, 'payload.amount must be a non-negative number, or reais as text with a decimal point'],
    ['reais text with three decimals', { amount: '10.505' }, 'payload.amount has more than two decimals, or is too large'],
    ['isRefund as text', { isRefund: 'false' }, 'payload.isRefund must be a boolean'],
    ['no transactionAccepted', { transactionAccepted: undefined }, 'payload.transactionAccepted must be a boolean'],
    ['no transactionStatus', { transactionStatus: undefined }, 'payload.transactionStatus must be a string'],
    ['a numeric reason', { reason: 3 }, 'payload.reason must be a string or null'],
    ['a date as timestamp', { timestamp: '2024-04-25T00:00:00Z' }, 'payload.timestamp must be Unix seconds'],
    ['an object endToEndId', { endToEndId: {} }, 'payload.endToEndId must be a string or null'],
  ])('refuses %s', (_name, payload, reason) => {
    expect(parseWebhookEvent(pixBody(payload))).toEqual({ ok: false, reason });
  });

  it('refuses a payload that is not an object', () => {
    expect(parseWebhookEvent({ serviceId: 1, payload: [] })).toEqual({ ok: false, reason: 'payload must be an object' });
    expect(parseWebhookEvent({ serviceId: 1, payload: null })).toEqual({ ok: false, reason: 'payload must be an object' });
    expect(parseWebhookEvent({ ...pixBody(), serviceId: true })).toEqual({ ok: false, reason: 'serviceId must be a number or a string' });
  });
});

describe('parseWebhookEvent: generic callbacks', () => {
  it('reads a callback', () => {
    const body = callbackBody();
    expect(parseWebhookEvent(body)).toEqual({
      ok: true,
      event: {
        kind: 'callback',
        eventId: 'evt_cb_1',
        type: 'bill_payment',
        category: 'bill_return',
        timestamp: '1714000000',
        title: 'Bill payment returned',
        detail: { transactionId: 'tx_9', reason: '13 - payment deadline exceeded' },
        raw: body,
      },
    });
  });

  it.each([
    ['no detail', { detail: undefined }, { detail: {} }],
    ['a null detail', { detail: null }, { detail: {} }],
    ['a numeric timestamp', { timestamp: 1714000000 }, { timestamp: '1714000000' }],
    ['no title', { title: undefined }, { title: null }],
    ['unknown extra fields', { extra: [1, 2] }, { kind: 'callback' }],
  ])('tolerates %s', (_name, fields, expected) => {
    expect(parseWebhookEvent(callbackBody(fields))).toMatchObject({ ok: true, event: expected });
  });

  it.each([
    ['no eventId', { eventId: undefined }, 'eventId must be a non-empty string'],
    ['no type', { type: undefined }, 'type must be a string'],
    ['no category', { category: undefined }, 'category must be a string'],
    ['a detail array', { detail: [] }, 'detail must be an object'],
    ['a detail string', { detail: 'x' }, 'detail must be an object'],
    ['a boolean timestamp', { timestamp: true }, 'timestamp must be a string'],
    ['a numeric title', { title: 5 }, 'title must be a string or null'],
  ])('refuses %s', (_name, fields, reason) => {
    expect(parseWebhookEvent(callbackBody(fields))).toEqual({ ok: false, reason });
  });
});

describe('parseWebhookEvent: anything else', () => {
  it.each([null, 1, 'text', true, [], [callbackBody()]])('refuses %j as not an object', (body) => {
    expect(parseWebhookEvent(body)).toEqual({ ok: false, reason: 'body is not a JSON object' });
  });

  it('does not read inherited properties (a __proto__ key is data, not a payload)', () => {
    const body: unknown = JSON.parse('{"__proto__": {"payload": {}}, "eventId": "e", "type": "t", "category": "c"}');
    expect(parseWebhookEvent(body)).toMatchObject({ ok: true, event: { kind: 'callback' } });
  });

  it('never throws, and names fields rather than echoing values, for any JSON', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.record({ payload: fc.jsonValue() }), fc.dictionary(fc.string(), fc.jsonValue())), (body) => {
        const parsed = parseWebhookEvent(body);
        if (!parsed.ok) expect(parsed.reason).toMatch(/^[a-zA-Z. ,0-9-]+$/);
      }),
      { numRuns: 500 },
    );
  });
});
