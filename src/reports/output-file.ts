import { join } from 'node:path';
import { writePrivateFile } from '../private-files.js';

/** The longest a part of a file name made from a person's text (a batch's name) may be. */
const MAX_PART = 60;

/**
 * A text as a part of a file name any system and shell takes: accents dropped, lower case, every run of other
 * characters a single dash ("Folha Novembro/2026" → "folha-novembro-2026"), at most MAX_PART characters; '' when
 * nothing of it is left.
 */
export function fileNamePart(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_PART)
    .replace(/^-+|-+$/g, '');
}

/** `<base>.<ext>`, then `<base>-2.<ext>`, `<base>-3.<ext>`, …: the n-th name a file of `base` may take. */
const nth = (base: string, ext: string, n: number): string => `${n === 1 ? base : `${base}-${n}`}.${ext}`;

/**
 * Writes a private file (0600) named `<base>.<ext>` in `dir`, never replacing a file already there: the first of
 * `<base>-2.<ext>`, `<base>-3.<ext>`, … that is free is taken instead — checked by the write itself, so two runs at
 * once never take the same name. With `force`, `<base>.<ext>` is replaced. Returns the path written.
 */
export async function writeFreeFile(dir: string, base: string, ext: string, data: string | Uint8Array, o: { force?: boolean } = {}): Promise<string> {
  if (o.force) {
    const path = join(dir, nth(base, ext, 1));
    await writePrivateFile(path, data);
    return path;
  }
  for (let n = 1; ; n++) {
    const path = join(dir, nth(base, ext, n));
    try {
      await writePrivateFile(path, data, { replace: false });
      return path;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
