import type { Locale } from '../../words/locale.js';
import { counted } from '../../words/plural.js';

/** What `alerts list` and `alerts ack` say to people (their `--json` is not translated). */
export interface AlertsMessages {
  readonly none: string;
  header(o: { id: number; title: string; kind: string; raised: string; zone: string; acked: string | null }): string;
  more(n: number): string;
  acknowledged(n: number): string;
}

export const alertsMessages: Readonly<Record<Locale, AlertsMessages>> = {
  en: {
    none: 'No open alerts.',
    header: (o) => `#${o.id} ${o.title} (${o.kind}), raised ${o.raised}${o.acked === null ? '' : `, acknowledged ${o.acked}`} (${o.zone})`,
    more: (n) => `and ${n} more (all of them: paybatch alerts list --json)`,
    acknowledged: (n) => `✓ ${counted('en', n, { one: 'alert', other: 'alerts' })} acknowledged.`,
  },
  'pt-BR': {
    none: 'Nenhum alerta aberto.',
    header: (o) => `#${o.id} ${o.title} (${o.kind}), emitido em ${o.raised}${o.acked === null ? '' : `, reconhecido em ${o.acked}`} (${o.zone})`,
    more: (n) => `e mais ${n} (todos: paybatch alerts list --json)`,
    acknowledged: (n) => `✓ ${counted('pt-BR', n, { one: 'alerta reconhecido', other: 'alertas reconhecidos' })}.`,
  },
};
