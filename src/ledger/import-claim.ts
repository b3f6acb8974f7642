import { hostname } from 'node:os';
import { PaybatchError } from '../errors.js';
import { findImportByHash } from './import-repository.js';
import type { Ledger } from './ledger.js';
import { sql } from 'kysely';
import { ledgerTime } from './ledger-clock.js';
import { claimStands, STALE_CLAIM_MS } from './process-claim.js';

export interface ImportClaim {
  release(): Promise<void>;
}

/**
 * Claims the import of the sheet with this hash for this process, or fails naming the run that holds it (and the
 * import it has recorded so far). A holder whose process is gone (same host) or that is older than six hours by the
 * ledger's clock (another host) is replaced. The check and the take are one transaction.
 */
export async function claimImport(
  ledger: Ledger,
  o: { fileHash: string; fileName: string; now: Date },
  pid = process.pid,
  host = hostname(),
): Promise<ImportClaim> {
  await ledger.transaction(async (tx) => {
    const holder = await tx.first(
      tx.db.selectFrom('import_claims')
        .select(['pid', 'host', 'started_at', sql<number>`CASE WHEN started_at <= ${ledgerTime(tx, o.now, -STALE_CLAIM_MS)} THEN 1 ELSE 0 END`.as('stale')])
        .where('file_hash', '=', o.fileHash),
    );
    if (holder && claimStands(holder, pid, host, Number(holder.stale) === 1)) {
      const recorded = await findImportByHash(tx, o.fileHash);
      throw new PaybatchError(
        `${o.fileName} is being imported right now by another paybatch run (pid ${holder.pid} on ${holder.host}, since ${holder.started_at}` +
          `${recorded ? `; import #${recorded.id}, ${batchesText(recorded.batchIds)}` : ', still planning'}); this run changed nothing.`,
        { hint: 'Wait for that run to finish, then run the same command again: it shows the batch, or continues it if that run was interrupted.' },
      );
    }
    await tx.run(tx.db.deleteFrom('import_claims').where('file_hash', '=', o.fileHash));
    await tx.run(tx.db.insertInto('import_claims').values({ file_hash: o.fileHash, file_name: o.fileName, pid, host, started_at: ledgerTime(tx, o.now) }));
  });
  return {
    release: async () => {
      await ledger.run(ledger.db.deleteFrom('import_claims').where('file_hash', '=', o.fileHash).where('pid', '=', pid).where('host', '=', host));
    },
  };
}

function batchesText(ids: readonly number[]): string {
  return ids.length === 1 ? `batch #${ids[0]}` : `batches #${ids[0]}–#${ids.at(-1)}`;
}
