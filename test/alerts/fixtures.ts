import type { Alert, AlertItem } from '../../src/alerts/alert.js';

export function item(n: number, over: Partial<AlertItem> = {}): AlertItem {
  return {
    identifier: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    batch: 'folha-maio',
    line: n + 1,
    key: `pessoa${n}@example.com`,
    amountCents: 123_456 + n,
    status: 'processing',
    lastUpdate: '2025-05-02T10:00:00.000Z',
    recipient: `Maria ${n}`,
    ...over,
  };
}

export function alert(over: Partial<Alert> = {}, count = 3): Alert {
  return {
    id: 7,
    kind: 'stale-items',
    title: 'Payments without news for 2h',
    summary: 'These items have had no update from the provider since they were started.',
    items: Array.from({ length: count }, (_, i) => item(i)),
    createdAt: '2025-05-02T12:00:00.000Z',
    profile: 'default',
    sandbox: false,
    ...over,
  };
}
