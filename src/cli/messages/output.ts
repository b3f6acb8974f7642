import type { Locale } from '../../words/locale.js';
import { formatProblem, type InputProblem } from '../../errors.js';

/** The frame around errors and warnings on stderr; the texts inside come from where the error was raised. */
export interface OutputMessages {
  readonly error: string;
  readonly warning: string;
  readonly usage: string;
  readonly unexpected: string;
  readonly bug: string;
  /** A problem of an input file or argument: where (file, line, field) and why. */
  problem(p: InputProblem): string;
  /** Private files others can read: `files` lists them with their modes, `fix` is the command that fixes it. */
  shared(what: 'ledger' | 'receipts', files: string, fix: string): string;
  /** A confirmation declined or a prompt left with Ctrl-C: what was not done ("nothing was changed"). */
  cancelled(nothing: 'changed' | 'paid'): string;
  /** The profile names no provider: the embedded sandbox answers instead (`dialect` when not paybatch's own). */
  sandbox(url: string, dialect: string | null): string;
  /** This host's clock is `offsetMs` behind (positive) or ahead of (negative) the ledger database's. */
  clockSkew(offsetMs: number, ledger: string): string;
}

const seconds = (ms: number) => Math.round(Math.abs(ms) / 100) / 10;

export const outputMessages: Readonly<Record<Locale, OutputMessages>> = {
  en: {
    error: 'error:',
    warning: 'warning:',
    usage: "Run 'paybatch --help' for usage.",
    unexpected: 'unexpected:',
    bug: 'This is a bug in paybatch; please report it with the command you ran.',
    problem: formatProblem,
    cancelled: (nothing) => `Cancelled; nothing was ${nothing}.`,
    sandbox: (url, dialect) =>
      `SANDBOX: no provider is configured, so the embedded sandbox at ${url}${dialect ? ` (answering in its "${dialect}" dialect)` : ''} is used; no real money moves.`,
    shared: (what, files, fix) =>
      `${what === 'ledger' ? 'The ledger' : 'The receipts folder'} can be read by other users: ${files}. ` +
      `It holds names, documents, Pix keys and amounts; make it private with: ${fix}`,
    clockSkew: (offsetMs, ledger) =>
      `This host's clock is ${seconds(offsetMs)} s ${offsetMs > 0 ? 'behind' : 'ahead of'} the clock of the ledger's database (${ledger}); ` +
      "paybatch goes by the database's clock, but set this host's right (NTP): logs and files are stamped with it.",
  },
  'pt-BR': {
    error: 'erro:',
    warning: 'aviso:',
    usage: "Veja como usar com 'paybatch --help'.",
    unexpected: 'inesperado:',
    bug: 'Isto é um defeito do paybatch; por favor, informe-o junto com o comando que você executou.',
    cancelled: (nothing) => `Cancelado; nada foi ${nothing === 'paid' ? 'pago' : 'alterado'}.`,
    sandbox: (url, dialect) =>
      `SANDBOX: nenhum provedor está configurado, então o sandbox embutido em ${url}${dialect ? ` (respondendo no dialeto "${dialect}")` : ''} é usado; nenhum dinheiro de verdade se move.`,
    problem: (p) => {
      // A problem of the whole row has the field `row`: the line says it already.
      // Positions of a CNAB 240 line ("posições 24-41") are said as they are, not as a field.
      const field = p.field === undefined || p.field === 'row' ? undefined : p.field.startsWith('posições ') ? p.field : `campo ${p.field}`;
      const where = [p.file, p.line === undefined ? undefined : `linha ${p.line}`, field].filter(Boolean);
      return where.length ? `${where.join(', ')}: ${p.reason}` : p.reason;
    },
    shared: (what, files, fix) =>
      what === 'ledger'
        ? `O registro local pode ser lido por outros usuários: ${files}. Ele guarda nomes, documentos, chaves Pix e valores; torne-o privado com: ${fix}`
        : `A pasta de comprovantes pode ser lida por outros usuários: ${files}. Ela guarda nomes, documentos, chaves Pix e valores; torne-a privada com: ${fix}`,
    clockSkew: (offsetMs, ledger) =>
      `O relógio deste servidor está ${seconds(offsetMs).toLocaleString('pt-BR')} s ${offsetMs > 0 ? 'atrasado' : 'adiantado'} em relação ao do banco de dados do registro (${ledger}); ` +
      'o paybatch segue o relógio do banco, mas acerte o deste servidor (NTP): logs e arquivos são carimbados com ele.',
  },
};
