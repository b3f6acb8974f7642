import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTINGS_DOC, withSettingsTable } from '../../scripts/docs-settings.mjs';
import * as settings from '../../src/config/settings.js';

describe('docs/settings.md', () => {
  it('has the table of every setting that scripts/docs-settings.mjs writes (run `npm run docs` after changing a setting)', () => {
    const doc = readFileSync(SETTINGS_DOC, 'utf8');
    expect(doc).toBe(withSettingsTable(doc, settings));
  });

  it('names settings, defaults and variables as a user types them (rows written by hand)', () => {
    const doc = readFileSync(SETTINGS_DOC, 'utf8');
    expect(doc).toContain('| `requestTimeout` | `30s` | `PAYBATCH_REQUEST_TIMEOUT` |  |');
    expect(doc).toContain('| `maxItemAmount` | `R$ 50.000,00` | `PAYBATCH_MAX_ITEM_AMOUNT` |  |');
    expect(doc).toContain('| `apiKey` | unset | `PAYBATCH_API_KEY`, `PAYBATCH_API_KEY_FILE` | yes | Service-ApiKey |');
    expect(doc).toContain('| `pixAmountUnit` | unset | `PAYBATCH_PIX_AMOUNT_UNIT` |  |');
  });
});
