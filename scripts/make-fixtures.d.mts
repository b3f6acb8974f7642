/** Every fixture file name and its bytes, exactly as `node scripts/make-fixtures.mjs` writes them to fixtures/. */
export function buildFixtures(): Record<string, Uint8Array>;
export function cpfFrom(base9: string): string;
export function cnpjFrom(base12: string): string;
