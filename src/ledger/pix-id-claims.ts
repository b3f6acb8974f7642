import { quarantineEvent } from './event-repository.js';
import type { Ledger } from './ledger.js';
import { preparedQuery } from './prepared-query.js';

/** Keeps the Pix id an event gave a payment, when it is new for that payment. Call inside the event's transaction. */
export async function recordPixIdClaim(ledger: Ledger, c: { itemId: number; pixId: string; endToEndId: string | null; eventId: string; at: Date }): Promise<void> {
  // One statement on the webhook's path: an id already claimed for the payment keeps its first claim.
  await ledger.run(insertClaim(ledger, c.itemId, c.pixId, c.endToEndId, c.eventId, c.at.toISOString()));
}

const insertClaim = preparedQuery((db, item_id: number, pix_id: string, end_to_end_id: string | null, event_id: string, claimed_at: string) =>
  db.insertInto('pix_id_claims').values({ item_id, pix_id, end_to_end_id, event_id, claimed_at }).onConflict((oc) => oc.columns(['item_id', 'pix_id']).doNothing()),
);

/** The other Pix ids events gave this payment, oldest first: what to try when the receipt of its current one is not found. */
export async function otherPixIdClaims(ledger: Ledger, itemId: number, pixId: string): Promise<{ pixId: string; endToEndId: string | null }[]> {
  const rows = await ledger.all(
    ledger.db.selectFrom('pix_id_claims').select(['pix_id', 'end_to_end_id']).where('item_id', '=', itemId).where('pix_id', '!=', pixId).orderBy('id'),
  );
  return rows.map((r) => ({ pixId: r.pix_id, endToEndId: r.end_to_end_id }));
}

/** The receipt endpoint has a receipt for `pixId`, another id an event gave the payment: the item takes it. */
export async function adoptPixId(ledger: Ledger, o: { itemId: number; pixId: string; endToEndId: string | null; at: Date }): Promise<void> {
  await ledger.run(
    ledger.db
      .updateTable('items')
      .set({ pix_id: o.pixId, ...(o.endToEndId === null ? {} : { end_to_end_id: o.endToEndId }), updated_at: o.at.toISOString() })
      .where('id', '=', o.itemId),
  );
}

/**
 * The provider still has no receipt under `pixId`, which only an event gave the payment, before `claimedBefore`: the
 * id is set aside — taken off the item (with the end-to-end id the same event gave) and its event quarantined — so
 * the payment is alerted as having no receipt to fetch rather than asked for under a false id for ever. False when
 * no event claimed it so long ago (the id came from the provider's own pages, or is still fresh).
 */
export async function setAsideUnconfirmedPixId(ledger: Ledger, o: { itemId: number; pixId: string; claimedBefore: Date; at: Date }): Promise<boolean> {
  return ledger.transaction(async (tx) => {
    const claim = await tx.first(
      tx.db.selectFrom('pix_id_claims').selectAll().where('item_id', '=', o.itemId).where('pix_id', '=', o.pixId).where('claimed_at', '<', o.claimedBefore.toISOString()),
    );
    if (!claim) return false;
    await quarantineEvent(tx, claim.event_id, `it gave this payment the Pix id ${o.pixId}, for which the provider has no receipt`);
    await tx.run(
      tx.db
        .updateTable('items')
        .set((eb) => ({
          pix_id: null,
          end_to_end_id: claim.end_to_end_id === null ? eb.ref('end_to_end_id') : eb.case().when('end_to_end_id', '=', claim.end_to_end_id).then(null).else(eb.ref('end_to_end_id')).end(),
          updated_at: o.at.toISOString(),
        }))
        .where('id', '=', o.itemId)
        .where('pix_id', '=', o.pixId),
    );
    await tx.run(tx.db.deleteFrom('pix_id_claims').where('id', '=', claim.id));
    return true;
  });
}

/**
 * The receipts of these payments were saved under their current Pix ids, which are therefore theirs: the events
 * that gave them other ids are quarantined (to be alerted), and their claims are done with. Call inside a transaction.
 */
export async function closePixIdClaims(tx: Ledger, itemIds: readonly number[]): Promise<void> {
  if (itemIds.length === 0) return;
  const wrong = await tx.all(
    tx.db
      .selectFrom('pix_id_claims as c')
      .innerJoin('items as i', 'i.id', 'c.item_id')
      .select(['c.event_id', 'c.pix_id', 'i.pix_id as receiptPixId'])
      .where('c.item_id', 'in', [...itemIds])
      .whereRef('c.pix_id', '!=', 'i.pix_id'),
  );
  for (const c of wrong) await quarantineEvent(tx, c.event_id, `it gave this payment the Pix id ${c.pix_id}, but the provider's receipt of the payment is under ${c.receiptPixId}`);
  await tx.run(tx.db.deleteFrom('pix_id_claims').where('item_id', 'in', [...itemIds]));
}
