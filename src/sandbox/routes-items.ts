import type { FastifyInstance } from 'fastify';
import { checkPixKey, PIX_KEY_TYPES, type PixKeyType } from '../domain/pix-key.js';
import { sayValidation } from '../words/validation.js';
import { ACCOUNT_KEY_TYPE, accountReference } from './account-pix.js';
import { ApiError, conflict, notFound, ruleBroken, type FieldProblem } from './api-error.js';
import type { AccountOf, AppParts } from './app-parts.js';
import { decodeCursor, pageOf } from './cursor.js';
import type { Dialect } from './dialect.js';
import { keyExists } from './key-lookup.js';
import type { ItemRow, NewItem } from './pix-store.js';
import type { Runtime } from './runtime.js';
import { isObject, Problems } from './validate.js';

/** Items one request may add (413 above). */
const MAX_ITEMS_PER_REQUEST = 1_000;
/** Items one batch may hold (422 above). */
const MAX_ITEMS_PER_BATCH = 10_000;
/** Largest item: R$ 1.000.000,00 (422 above). */
const MAX_ITEM_CENTS = 100_000_000;

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
const DESTINATION_FIELDS = ['accountType', 'branch', 'key', 'accountNumber', 'institutionName', 'document', 'type', 'institution', 'name'] as const;

type BatchParams = { Params: { batchId: string } };

interface Candidate {
  amount: number;
  identifier: string;
  description: string;
  to: Record<string, string>;
  keyNorm: string;
  keyType: PixKeyType | typeof ACCOUNT_KEY_TYPE;
}

/** Endpoints 3, 4, 9 and 10: add, delete and list the items of a batch. */
export function registerItemRoutes(app: FastifyInstance, { rt, processor }: AppParts, accountOf: AccountOf): void {
  const pendingBatch = (account: string, batchId: string) => {
    const batch = rt.pix.batch(account, batchId);
    if (!batch) throw notFound('batch');
    if (batch.status !== 'pending') throw conflict('batch_not_pending', `items can only change while the batch is pending; it is ${batch.status}`);
    return batch;
  };
  const listPage = (account: string, batchId: string, cursor: string | undefined) => {
    if (!rt.pix.batch(account, batchId)) throw notFound('batch');
    const scope = `items:${batchId}`;
    const afterSeq = cursor === undefined ? 0 : decodeCursor(cursor, scope, rt.dialect.cursors);
    processor.settleStale(batchId);
    const size = rt.dialect.pageSize(rt.settings.pageSize);
    const page = pageOf(rt.pix.itemsAfter(batchId, afterSeq, size + 1), size, scope, rt.dialect.cursors);
    return { cursor: page.cursor, data: page.rows.map(rt.dialect.itemBody) };
  };

  app.post<BatchParams>('/pix/batch/:batchId/items', async (request) => {
    const account = accountOf(request);
    const batch = pendingBatch(account, request.params.batchId);
    const candidates = readItems(request.body, rt.dialect);
    checkRules(rt, candidates, batch.quantity);
    const items = rt.db.transaction(() => {
      const chosen = resolveIdentifiers(rt, account, candidates);
      const now = rt.clock.now();
      const result = chosen.map((c) => c.existing ?? insert(rt, { account, batchId: batch.id, candidate: c.candidate, now }));
      rt.pix.recountBatch(batch.id);
      return result;
    })();
    return { data: items.map(rt.dialect.itemBody) };
  });

  app.get<BatchParams>('/pix/batch/:batchId/items', async (request) => listPage(accountOf(request), request.params.batchId, undefined));

  app.get<{ Params: { batchId: string; cursor: string } }>('/pix/batch/:batchId/items/:cursor', async (request) =>
    listPage(accountOf(request), request.params.batchId, request.params.cursor),
  );

  app.delete<{ Params: { batchId: string; itemId: string } }>('/pix/batch/:batchId/items/:itemId', async (request, reply) => {
    const batch = pendingBatch(accountOf(request), request.params.batchId);
    const item = rt.pix.item(batch.id, request.params.itemId);
    if (!item) throw notFound('item');
    rt.db.transaction(() => {
      rt.pix.deleteItem(item.id);
      rt.pix.recountBatch(batch.id);
    })();
    return reply.code(202).send(rt.dialect.deletedBody({ itemId: item.id, status: 'deleted' }));
  });
}

/**
 * Validates every element of the body (amounts as the dialect reads them); one 400 lists all problems with paths like
 * `[3].to.key`.
 */
function readItems(body: unknown, dialect: Dialect): Candidate[] {
  const problems = new Problems();
  if (!Array.isArray(body)) throw new ApiError(400, 'invalid_input', 'the body must be a JSON array of items', [{ field: '(body)', problem: 'must be an array' }]);
  if (body.length === 0) problems.add('(body)', 'must have at least one item');
  if (body.length > MAX_ITEMS_PER_REQUEST) throw new ApiError(413, 'too_many_items', `at most ${MAX_ITEMS_PER_REQUEST} items per request, got ${body.length}`);
  const candidates = body.map((element, i) => readItem(element, `[${i}]`, problems, dialect));
  problems.throwIfAny();
  return candidates as Candidate[];
}

function readItem(element: unknown, at: string, problems: Problems, dialect: Dialect): Candidate | null {
  if (!isObject(element)) {
    problems.add(at, 'must be an object');
    return null;
  }
  const amount = dialect.itemAmount(element.amount);
  if (!amount.ok) problems.add(`${at}.amount`, amount.error);
  const identifier = problems.text(element, 'identifier', `${at}.identifier`, { required: true, max: 100 });
  if (identifier !== undefined && !IDENTIFIER.test(identifier)) {
    problems.add(`${at}.identifier`, 'must be 1-100 letters, digits, ".", "_", ":" or "-" (a UUID is best)');
  }
  const description = problems.text(element, 'description', `${at}.description`, { required: false, max: 140 }) ?? '';
  const to = readDestination(element.to, `${at}.to`, problems, dialect);
  if (to === null || identifier === undefined || !amount.ok) return null;
  return { amount: amount.value, identifier, description, ...to };
}

/**
 * The destination of an item: a Pix key (`key` and `type`), or, where the dialect takes it, a bank account when the
 * `to` has neither `key` nor `type` (blank counts as absent).
 */
function readDestination(value: unknown, at: string, problems: Problems, dialect: Dialect): Pick<Candidate, 'to' | 'keyNorm' | 'keyType'> | null {
  if (!isObject(value)) {
    problems.add(at, 'must be the destination object of the key lookup');
    return null;
  }
  const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
  const byKey = !dialect.accountPix || !blank(value.key) || !blank(value.type);
  const to: Record<string, string> = {};
  const before = problems.list.length;
  for (const field of DESTINATION_FIELDS) {
    const text = problems.text(value, field, `${at}.${field}`, { required: byKey && (field === 'key' || field === 'type'), max: 200 });
    if (text !== undefined) to[field] = text;
  }
  if (!byKey) {
    // A field that is not text is told once, as such, not again as missing.
    const reference = problems.list.length > before ? null : accountReference(to, at, problems);
    return reference === null ? null : { to, keyNorm: reference, keyType: ACCOUNT_KEY_TYPE };
  }
  if (to.key === undefined || to.type === undefined) return null;
  if (!(PIX_KEY_TYPES as readonly string[]).includes(to.type)) {
    problems.add(`${at}.type`, `must be one of ${PIX_KEY_TYPES.join(', ')}`);
    return null;
  }
  const check = checkPixKey(to.key, to.type as PixKeyType);
  if (!check.valid || check.normalized === null) {
    problems.add(`${at}.key`, check.reason === null ? 'is not a valid Pix key' : sayValidation(check.reason, 'en'));
    return null;
  }
  return { to, keyNorm: check.normalized, keyType: to.type as PixKeyType };
}

/** Rules of a valid request (422): amount limit, keys that exist, room in the batch. An account needs no lookup. */
function checkRules(rt: Runtime, candidates: readonly Candidate[], quantity: number): void {
  const broken: FieldProblem[] = [];
  candidates.forEach((c, i) => {
    if (c.amount > MAX_ITEM_CENTS) broken.push({ field: `[${i}].amount`, problem: `is above the limit of ${MAX_ITEM_CENTS} centavos per item` });
    if (c.keyType !== ACCOUNT_KEY_TYPE && !keyExists(rt, c.keyNorm, c.keyType)) broken.push({ field: `[${i}].to.key`, problem: 'no such Pix key in the directory' });
  });
  if (broken.length > 0) throw ruleBroken('item_rejected', 'items break the rules of the provider; nothing was added', broken);
  if (quantity + candidates.length > MAX_ITEMS_PER_BATCH) {
    throw ruleBroken('batch_full', `a batch holds at most ${MAX_ITEMS_PER_BATCH} items`);
  }
}

/**
 * Matches each candidate with the account's item of the same identifier (the idempotency key): the same amount and
 * key (or bank account) → that item; a different amount or destination → 409 for the whole request. Repeats inside
 * the request count too.
 */
function resolveIdentifiers(rt: Runtime, account: string, candidates: readonly Candidate[]): { candidate: Candidate; existing?: ItemRow }[] {
  const conflicts: FieldProblem[] = [];
  const firstSeen = new Map<string, Candidate>();
  const chosen = candidates.map((candidate, i) => {
    const existing = rt.pix.itemByIdentifier(account, candidate.identifier);
    const earlier = firstSeen.get(candidate.identifier);
    const same = (o: { amount: number; keyNorm: string; keyType: string }): boolean =>
      o.amount === candidate.amount && o.keyNorm === candidate.keyNorm && o.keyType === candidate.keyType;
    if (existing && !same({ amount: existing.amount, keyNorm: existing.key_norm, keyType: existing.key_type })) {
      conflicts.push({ field: `[${i}].identifier`, problem: `already used by item ${existing.id} with a different amount or destination` });
    } else if (earlier && !same(earlier)) {
      conflicts.push({ field: `[${i}].identifier`, problem: 'repeated in this request with a different amount or destination' });
    }
    if (!earlier) firstSeen.set(candidate.identifier, candidate);
    return { candidate, existing };
  });
  if (conflicts.length > 0) throw conflict('identifier_conflict', 'an identifier is already used for a different payment; nothing was added', conflicts);
  return chosen;
}

function insert(rt: Runtime, o: { account: string; batchId: string; candidate: Candidate; now: number }): ItemRow {
  const existing = rt.pix.itemByIdentifier(o.account, o.candidate.identifier);
  if (existing) return existing; // repeated inside this request
  const row: NewItem = {
    id: rt.nextId('item'),
    account: o.account,
    batch_id: o.batchId,
    identifier: o.candidate.identifier,
    amount: o.candidate.amount,
    description: o.candidate.description,
    to_json: JSON.stringify(o.candidate.to),
    key_norm: o.candidate.keyNorm,
    key_type: o.candidate.keyType,
    updated_at: o.now,
  };
  rt.pix.insertItem(row);
  return rt.pix.itemById(row.id) as ItemRow;
}
