import type { Locale } from '../../words/locale.js';
import { counted } from '../../words/plural.js';

/** What `paybatch reconcile` says to people; fields and states stay the words of `--json`. */
export interface ReconcileMessages {
  readonly nothing: string;
  batch(id: number, name: string, remoteId: string): string;
  readonly head: readonly [string, string, string];
  side(count: number, total: string): string;
  difference(identifier: string, line: number | null, field: string, ledger: string, provider: string): string;
  followed(n: number): string;
  agree(batches: number): string;
  disagree(differences: number, batches: number): string;
  readonly nextStep: string;
  readonly absent: string;
}

export const reconcileMessages: Readonly<Record<Locale, ReconcileMessages>> = {
  en: {
    nothing: 'No batch has been sent to the provider yet: nothing to compare.',
    batch: (id, name, remoteId) => `Batch #${id} "${name}" (provider ${remoteId})`,
    head: ['state', 'ledger', 'provider'],
    side: (count, total) => `${count} · ${total}`,
    difference: (identifier, line, field, ledger, provider) => `  ${line === null ? '' : `line ${line}, `}${identifier}: ${field} — ledger ${ledger}, provider ${provider}`,
    followed: (n) => `  the ledger now follows the provider's record for ${counted('en', n, { one: 'item', other: 'items' })}`,
    agree: (batches) => `✓ The ledger agrees with the provider, item by item, in ${counted('en', batches, { one: 'batch', other: 'batches' })}.`,
    disagree: (differences, batches) => `✗ ${counted('en', differences, { one: 'difference', other: 'differences' })} with the provider's record in ${counted('en', batches, { one: 'batch', other: 'batches' })}.`,
    nextStep:
      "States now follow the provider's record (alert record-disagrees names each correction). An amount or an item only one side holds cannot be followed: ask the provider about it, and do not pay it again before they answer.",
    absent: 'absent',
  },
  'pt-BR': {
    nothing: 'Nenhum lote foi enviado ao provedor ainda: nada a comparar.',
    batch: (id, name, remoteId) => `Lote #${id} "${name}" (provedor ${remoteId})`,
    head: ['situação', 'registro local', 'provedor'],
    side: (count, total) => `${count} · ${total}`,
    difference: (identifier, line, field, ledger, provider) => `  ${line === null ? '' : `linha ${line}, `}${identifier}: ${field} — local ${ledger}, provedor ${provider}`,
    followed: (n) => `  o registro local agora segue o do provedor em ${counted('pt-BR', n, { one: 'item', other: 'itens' })}`,
    agree: (batches) => `✓ O registro local bate com o do provedor, item a item, em ${counted('pt-BR', batches, { one: 'lote', other: 'lotes' })}.`,
    disagree: (differences, batches) => `✗ ${counted('pt-BR', differences, { one: 'diferença', other: 'diferenças' })} com o registro do provedor em ${counted('pt-BR', batches, { one: 'lote', other: 'lotes' })}.`,
    nextStep:
      'As situações agora seguem o registro do provedor (o alerta record-disagrees cita cada correção). Um valor ou um item que só um dos lados tem não pode ser seguido: pergunte ao provedor e não pague de novo antes da resposta.',
    absent: 'ausente',
  },
};
