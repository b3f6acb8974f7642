import { ProviderError } from '../errors.js';
import type { WirePage } from './types.js';

/** Guard against a provider that never ends a listing. */
const MAX_PAGES = 100_000;

/**
 * Walks a cursor listing (SPEC.md rule 3): `fetchPage(null)` gives the first page, `fetchPage(cursor)` the next,
 * until a page's cursor is null. Yields each page's data, empty pages included. A cursor seen twice fails with a
 * ProviderError instead of looping forever.
 */
export async function* cursorPages<T>(
  fetchPage: (cursor: string | null) => Promise<WirePage<T>>,
  describe: { method: string; path: string },
): AsyncGenerator<T[], void, undefined> {
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let n = 0; n < MAX_PAGES; n++) {
    const page: WirePage<T> = await fetchPage(cursor);
    yield page.data;
    if (page.cursor === null) return;
    if (seen.has(page.cursor)) {
      throw new ProviderError(`${describe.method} ${describe.path}: the provider returned the cursor "${page.cursor}" twice; the listing would never end`, {
        status: null, method: describe.method, path: describe.path, code: 'cursor_loop',
      });
    }
    seen.add(page.cursor);
    cursor = page.cursor;
  }
  throw new ProviderError(`${describe.method} ${describe.path}: more than ${MAX_PAGES} pages; stopped`, {
    status: null, method: describe.method, path: describe.path, code: 'too_many_pages',
  });
}
