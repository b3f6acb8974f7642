import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../../src/config/settings.js';
import { LAYOUTS } from '../../../src/sheet/cnab240/layouts.js';

describe('the CNAB 240 layouts', () => {
  it('are the values the cnabLayout setting takes', () => {
    for (const l of LAYOUTS) expect(SETTINGS.cnabLayout.parse(l.id)).toEqual({ ok: true, value: l.id });
    expect(SETTINGS.cnabLayout.parse('bradesco-400').ok).toBe(false);
  });

  it('each name their banks once, and place every field inside the 240 positions', () => {
    const banks = LAYOUTS.flatMap((l) => l.banks);
    expect(new Set(banks).size).toBe(banks.length);
    for (const l of LAYOUTS) {
      for (const record of [l.fileHeader, l.lotHeader, l.segmentA, l.segmentB, l.segmentJ, l.segmentJ52, l.segmentZ, l.lotTrailer, l.fileTrailer]) {
        for (const f of Object.values(record)) if (f) expect(f.at[0] >= 1 && f.at[0] <= f.at[1] && f.at[1] <= 240, `${l.id} ${f.at.join('-')}`).toBe(true);
      }
    }
  });
});
