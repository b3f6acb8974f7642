import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch ledger`. */
export interface LedgerHelp {
  readonly group: string;
  /** Each `examples` is the text after the options: notes, then examples. */
  readonly migrate: { readonly description: string; readonly examples: string };
  readonly copy: { readonly description: string; readonly from: string; readonly to: string; readonly force: string; readonly examples: string };
  readonly backup: { readonly description: string; readonly to: string; readonly examples: string };
  readonly check: { readonly description: string; readonly examples: string };
}

export const ledgerHelp: Readonly<Record<Locale, LedgerHelp>> = {
  en: {
    group: 'migrate, copy, back up and check the ledger (SQLite or PostgreSQL)',
    migrate: {
      description: "bring the ledger's schema up to this paybatch (every command does it on open; this one only that)",
      examples: `
Run it once when upgrading paybatch on hosts that share a PostgreSQL ledger, before restarting their daemons. A
ledger written by a newer paybatch is refused, never changed.

Examples:
  paybatch ledger migrate --ledger postgres://paybatch@db.internal:5432/paybatch
  paybatch ledger migrate --json      # {"ledger": …, "dialect": …, "applied": [...], "migrations": N}`,
    },
    copy: {
      description: 'copy a ledger into another, empty one (moving from SQLite to PostgreSQL), verified by row counts and sums',
      from: 'the ledger to copy (an SQLite file, or a postgres:// URL)',
      to: "an empty ledger to copy into, made and migrated when new (default: the profile's ledger setting, e.g. from PAYBATCH_LEDGER_FILE, which keeps a password off the command line)",
      force: 'copy although a daemon holds the source (what it writes afterwards is not in the copy)',
      examples: `
Stop every paybatch using the source first: the copy is what the source holds when it starts, so a source a daemon
holds (its lock, or a lease on work) is refused unless --force. It is made in one
transaction of the target, then every table's rows and each money table's centavos by status are compared on both
sides; any difference rolls the whole copy back. Ids, identifiers and receipt paths are kept. The source is not
changed: keep it as a backup.

Examples:
  paybatch ledger copy --from ~/.local/share/paybatch/ledger.db --to postgres://paybatch@db.internal:5432/paybatch
  PAYBATCH_LEDGER_FILE=/etc/paybatch/ledger-url paybatch ledger copy --from ledger.db --json   # into the URL in that file`,
    },
    backup: {
      description: 'copy the ledger to a private file (0600), consistent even while a daemon writes to it',
      to: 'where to write the copy (never overwritten; default: beside the ledger, with the time in its name)',
      examples: `
paybatch also backs the ledger up by itself before it updates the ledger's schema (the newest three are kept,
named <ledger>.pre-migration-<time>.db). To restore, stop paybatch and copy a backup over the ledger file.

Examples:
  paybatch ledger backup
  paybatch ledger backup --to /mnt/backups/ledger-2026-11-20.db
  paybatch ledger backup --json      # {"path": …, "bytes": …}`,
    },
    check: {
      description: 'check the ledger: SQLite integrity, calls without outcome, payments marked paid twice, batch totals',
      examples: `
Exit code 0 when all is well, 4 when something needs attention. A call without outcome is one a run was making
when it stopped; when a later call of the same operation succeeded it is listed but needs nothing.

Examples:
  paybatch ledger check
  paybatch ledger check --json`,
    },
  },
  'pt-BR': {
    group: 'migra, copia, faz backup e confere o registro local (SQLite ou PostgreSQL)',
    migrate: {
      description: 'atualiza o esquema do registro local para este paybatch (todo comando faz isso ao abri-lo; este só faz isso)',
      examples: `
Rode-o uma vez ao atualizar o paybatch em servidores que compartilham um registro local PostgreSQL, antes de reiniciar
os daemons deles. Um registro local gravado por um paybatch mais novo é recusado, nunca alterado.

Exemplos:
  paybatch ledger migrate --ledger postgres://paybatch@db.internal:5432/paybatch
  paybatch ledger migrate --json      # {"ledger": …, "dialect": …, "applied": [...], "migrations": N}`,
    },
    copy: {
      description: 'copia um registro local para outro, vazio (na mudança de SQLite para PostgreSQL), conferido por contagens de linhas e somas',
      from: 'o registro local a copiar (um arquivo SQLite, ou uma URL postgres://)',
      to: 'um registro local vazio para onde copiar, criado e migrado se for novo (padrão: a configuração ledger do perfil, p. ex. vinda de PAYBATCH_LEDGER_FILE, que mantém a senha fora da linha de comando)',
      force: 'copia mesmo que um daemon esteja usando a origem (o que ele gravar depois não entra na cópia)',
      examples: `
Pare antes todo paybatch que usa a origem: a cópia traz o que a origem contém no momento em que começa, então uma origem
que um daemon está usando (pela trava dele, ou por uma reserva de trabalho) é recusada, a não ser com --force. Ela é feita
numa única transação do destino; depois, as linhas de cada tabela e os centavos por situação de cada tabela de valores
são comparados nos dois lados, e qualquer diferença desfaz a cópia inteira. Ids, identificadores e caminhos de
comprovantes são mantidos. A origem não é alterada: guarde-a como backup.

Exemplos:
  paybatch ledger copy --from ~/.local/share/paybatch/ledger.db --to postgres://paybatch@db.internal:5432/paybatch
  PAYBATCH_LEDGER_FILE=/etc/paybatch/ledger-url paybatch ledger copy --from ledger.db --json   # para a URL que está nesse arquivo`,
    },
    backup: {
      description: 'copia o registro local para um arquivo privado (0600), consistente mesmo enquanto um daemon grava nele',
      to: 'onde gravar a cópia (nunca sobrescrita; padrão: ao lado do registro local, com a hora no nome)',
      examples: `
O paybatch também faz sozinho um backup do registro local antes de atualizar o esquema dele (os três mais recentes são
mantidos, com o nome <ledger>.pre-migration-<time>.db). Para restaurar, pare o paybatch e copie um backup por cima do
arquivo do registro local.

Exemplos:
  paybatch ledger backup
  paybatch ledger backup --to /mnt/backups/ledger-2026-11-20.db
  paybatch ledger backup --json      # {"path": …, "bytes": …}`,
    },
    check: {
      description: 'confere o registro local: integridade do SQLite, chamadas sem resultado, pagamentos marcados como pagos duas vezes, totais dos lotes',
      examples: `
Código de saída 0 quando está tudo certo, 4 quando algo requer atenção. Uma chamada sem resultado é uma que estava em
andamento quando a execução parou; quando uma chamada posterior da mesma operação deu certo, ela aparece na lista mas não
requer nada.

Exemplos:
  paybatch ledger check
  paybatch ledger check --json`,
    },
  },
};
