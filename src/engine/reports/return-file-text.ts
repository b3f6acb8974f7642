/** What batch and bill return files share: the remittance's layout, and the file's text and bytes as written. */
import { saoPauloDateTime } from '../../domain/bank-calendar.js';
import type { Cnab240Layout } from '../../sheet/cnab240/layout.js';
import { layoutNamed } from '../../sheet/cnab240/layouts.js';
import { returnFile, type ReturnFileInput } from '../../sheet/cnab240/return-file.js';
import { windows1252Bytes } from '../../sheet/decode-text.js';

/** A return file as written: batch and bill ones alike. */
export interface ReturnFileText {
  readonly layout: string;
  readonly text: string;
  /** The file's bytes: its text in the remittance's own encoding (positions count bytes in a bank's file). */
  readonly bytes: Uint8Array;
  /** Each title's occurrence codes, in order: what the file says, to tell when a new one is owed. */
  readonly said: string;
  readonly titles: number;
  /** Titles still open (not yet paid, failed or returned): the file says so (BD), and will say more later. */
  readonly open: number;
}

/** The layout a remittance was read with: written by this version's layouts, but a newer paybatch's ledger may name one this one lacks. */
export function layoutOfRemittance(id: string): Cnab240Layout {
  const layout = layoutNamed(id);
  if (!layout) throw new Error(`the remittance's layout "${id}" is not one this paybatch knows`);
  return layout;
}

/** A return file written `now` (São Paulo time in its header): its text, and its bytes in the remittance's encoding. */
export function writtenReturn(
  o: Pick<ReturnFileInput, 'layout' | 'fileHeader' | 'sequence' | 'titles'> & { readonly encoding: 'utf-8' | 'windows-1252' },
  now: Date,
): { text: string; bytes: Uint8Array } {
  const [day, time] = saoPauloDateTime(now).split(' ');
  const text = returnFile({ layout: o.layout, fileHeader: o.fileHeader, writtenOn: day!, writtenAt: `${time!.replace(':', '')}00`, sequence: o.sequence, titles: o.titles });
  const bytes = o.encoding === 'windows-1252' ? windows1252Bytes(text) : Buffer.from(text, 'utf8');
  // The remittance was read from this encoding, so its own characters always have bytes in it.
  if (bytes === null) throw new Error('a return file holds a character its remittance could not have');
  return { text, bytes };
}
