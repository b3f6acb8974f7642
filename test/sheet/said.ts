import type { InputProblem } from '../../src/errors.js';
import type { SheetProblem } from '../../src/domain/sheet-reason.js';
import type { Locale } from '../../src/words/locale.js';
import { saySheet } from '../../src/words/sheet.js';

/** A sheet problem with its reason in words (English unless told), as people and `--json` read it. */
export function said<P extends SheetProblem>(p: P, locale: Locale = 'en'): Omit<P, 'reason'> & InputProblem {
  return { ...p, reason: saySheet(p.reason, locale) };
}
