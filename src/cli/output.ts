import { createRequire } from 'node:module';
import { resolveLocale, type Locale } from '../words/locale.js';
import { withProfile } from '../words/profile-commands.js';
import type { InputProblem } from '../errors.js';
import { colorEnabled, languageEnv, type IO } from './io.js';
import { outputMessages } from './messages/output.js';
import { makeStyle, type Style } from './style.js';
import { fitTable, numericColumn, truncate, verticalTable, type ColumnRole } from './table-layout.js';

export interface OutputOptions {
  readonly json: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly color: boolean;
}

/** A running status line; a no-op when stderr is not a terminal (logs stay clean in cron and CI). */
export interface Spinner {
  text(s: string): void;
  succeed(s?: string): void;
  fail(s?: string): void;
  stop(): void;
}

const require = createRequire(import.meta.url);

/**
 * The only place that writes to the terminal. Data goes to stdout (a table, or with --json exactly one
 * JSON document); status, progress and warnings go to stderr.
 */
export class Output {
  private styles: { out: Style; err: Style } | undefined;
  private jsonWritten = false;
  /**
   * The language of human output: from the environment until the profile is read, then the profile's `locale`
   * setting over it (see Context.locale). `--json` never depends on it.
   */
  locale: Locale;
  /**
   * The run's profile, once read (see Context.profile): the commands paybatch suggests then carry `--profile` when it
   * is not the default one, so that pasting them acts on this profile.
   */
  profile: string | undefined;

  constructor(
    private readonly io: IO,
    readonly options: OutputOptions,
  ) {
    this.locale = resolveLocale(undefined, languageEnv(io));
  }

  /** Colours for stdout, chosen at first use: asking whether it is a terminal costs a start that prints none. */
  get style(): Style {
    return this.stylesOf().out;
  }

  get errStyle(): Style {
    return this.stylesOf().err;
  }

  private stylesOf(): { out: Style; err: Style } {
    return (this.styles ??= { out: makeStyle(colorEnabled(this.io, 'stdout', this.options.color)), err: makeStyle(colorEnabled(this.io, 'stderr', this.options.color)) });
  }

  get json(): boolean {
    return this.options.json;
  }

  /** The command's result: the JSON document with --json, otherwise whatever `human` prints. */
  result(doc: unknown, human: () => void): void {
    if (this.options.json) this.writeJson(doc);
    else human();
  }

  /** Writes the one JSON document of this run; a second call is a bug, so it throws. */
  writeJson(doc: unknown): void {
    if (this.jsonWritten) throw new Error('a second JSON document was written to stdout');
    this.jsonWritten = true;
    this.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  }

  get jsonDone(): boolean {
    return this.jsonWritten;
  }

  /** A line of data on stdout (human mode only). */
  print(line = ''): void {
    if (!this.options.json) this.io.stdout.write(`${this.forProfile(line)}\n`);
  }

  info(message: string): void {
    if (!this.options.quiet) this.io.stderr.write(`${this.forProfile(message)}\n`);
  }

  /** A note that must reach a person even with --quiet (e.g. that the sandbox is in use). */
  notice(message: string): void {
    this.io.stderr.write(`${this.errStyle.cyan(this.forProfile(message))}\n`);
  }

  warn(message: string): void {
    this.io.stderr.write(`${this.errStyle.yellow(this.words.warning)} ${this.forProfile(message)}\n`);
  }

  error(message: string): void {
    this.io.stderr.write(`${this.errStyle.red(this.words.error)} ${this.forProfile(message)}\n`);
  }

  /** `text` with the commands it suggests bound to the run's profile (see withProfile). */
  forProfile(text: string): string {
    return withProfile(text, this.profile);
  }

  /** The frame of error reports (main's reportError) in the run's language. */
  get words() {
    return outputMessages[this.locale];
  }

  /** `file:line field: reason`, or in Portuguese with the labels spelled out. */
  problem(p: InputProblem): string {
    return this.words.problem(p);
  }

  debug(message: string): void {
    if (this.options.verbose) this.io.stderr.write(`${this.errStyle.dim(message)}\n`);
  }

  /**
   * Renders rows as a table: boxed on a terminal, amounts and counts right-aligned, fitted to its width (`roles` says
   * which columns give way first: see fitTable), or one "field: value" block per row when even that cannot fit;
   * tab-separated columns when piped, whole, for cut and awk.
   */
  table(head: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[], roles: readonly ColumnRole[] = []): string {
    const cells = rows.map((r) => r.map((c) => (c === null || c === undefined ? '' : String(c))));
    const headed = head.some((h) => h !== '');
    if (!this.io.stdoutIsTTY) {
      return (headed ? [head, ...cells] : cells).map((r) => r.join('\t')).join('\n');
    }
    const layout = fitTable(head, cells, this.io.columns, roles);
    if (layout.kind === 'vertical') return verticalTable(head, cells, this.io.columns);
    const shown = head.map((_, i) => i).filter((i) => !layout.dropped?.includes(i));
    const fitted = cells.map((r) => shown.map((i, k) => (r[i] ?? '').split('\n').map((line) => truncate(line, layout.widths[k]!)).join('\n')));
    const Table = require('cli-table3') as typeof import('cli-table3');
    const table = new Table({
      head: headed ? shown.map((i) => this.style.bold(head[i]!)) : [],
      // Widths are decided above and cells already cut to them: only a header wider than its column wraps, at a space.
      colWidths: layout.widths.map((w) => w + 2),
      colAligns: shown.map((i) => (numericColumn(cells, i) ? 'right' : 'left')),
      wordWrap: true,
      wrapOnWordBoundary: true,
      style: { head: [], border: [] },
    });
    table.push(...fitted);
    return table.toString();
  }

  /** A spinner on stderr when it is a terminal and output is for a person; otherwise silent. */
  async spinner(text: string): Promise<Spinner> {
    if (!this.io.stderrIsTTY || this.options.quiet || this.options.json) {
      return { text() {}, succeed: (s) => s && this.info(s), fail: (s) => s && this.warn(s), stop() {} };
    }
    const { default: ora } = await import('ora');
    const spin = ora({ text, stream: this.io.stderr as NodeJS.WriteStream, color: 'cyan', isEnabled: true }).start();
    return {
      text: (s) => {
        spin.text = s;
      },
      succeed: (s) => spin.succeed(s),
      fail: (s) => spin.fail(s),
      stop: () => spin.stop(),
    };
  }
}
