import { Option } from 'commander';
import type { Destination } from '../../domain/destination.js';
import { checkPixKey, type PixKeyCheck, type PixKeyType } from '../../domain/pix-key.js';
import { ExitCode, InputRejectedError } from '../../errors.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import type { Output } from '../output.js';
import { keysHelp } from '../messages/help/keys.js';
import { DESTINATION_FIELDS, keysMessages, type KeysMessages } from '../messages/keys.js';
import { arg, optionalChoice } from '../raw-input.js';
import { sayValidation } from '../../words/validation.js';
import type { Locale } from '../../words/locale.js';

const KEY_TYPES: readonly PixKeyType[] = ['cpf', 'cnpj', 'phone', 'email', 'evp'];

export interface KeysCheckOptions {
  readonly keys: readonly string[];
  /** Check every key as this type instead of detecting it. */
  readonly type?: PixKeyType;
}

export interface KeysLookupOptions {
  readonly key: string;
  readonly type?: PixKeyType;
}

export const registerKeys: RegisterCommands = (program, runner, locale) => {
  const h = keysHelp[locale];
  const keys = program.command('keys').description(h.group);
  keys
    .command('check')
    .description(h.check.description)
    .argument('<key...>', h.check.keys)
    .addOption(new Option('--type <type>', h.check.type).choices(KEY_TYPES))
    .addHelpText('after', h.check.examples)
    .action(runner.action(parseKeysCheckOptions, runKeysCheck));

  keys
    .command('lookup')
    .description(h.lookup.description)
    .argument('<key>', h.lookup.key)
    .addOption(new Option('--type <type>', h.lookup.type).choices(KEY_TYPES))
    .addHelpText('after', h.lookup.examples)
    .action(runner.action(parseKeysLookupOptions, runKeysLookup));
};

export function parseKeysCheckOptions(raw: RawInput): KeysCheckOptions {
  const type = optionalChoice(raw, 'type', KEY_TYPES);
  return { keys: [...raw.args], ...(type === undefined ? {} : { type }) };
}

export function parseKeysLookupOptions(raw: RawInput): KeysLookupOptions {
  const type = optionalChoice(raw, 'type', KEY_TYPES);
  return { key: arg(raw, 0, 'key'), ...(type === undefined ? {} : { type }) };
}

export async function runKeysCheck(ctx: Context, opts: KeysCheckOptions): Promise<number> {
  // The environment's language, as for help: this offline check reads no profile (it starts as fast as --version).
  // --json keeps English reasons, like every --json document.
  const locale = ctx.out.json ? 'en' : ctx.out.locale;
  const results = opts.keys.map((k) => checkPixKey(k, opts.type));
  ctx.out.result(results.map((r) => keyCheckDocument(r, locale)), () => renderKeyChecks(ctx.out, keysMessages[locale], results, locale));
  return results.every((r) => r.valid) ? ExitCode.ok : ExitCode.inputRejected;
}

export async function runKeysLookup(ctx: Context, opts: KeysLookupOptions): Promise<number> {
  const check = checkPixKey(opts.key, opts.type);
  if (!check.valid) throw new InputRejectedError(`${opts.key}: ${check.reason === null ? '' : sayValidation(check.reason, 'en')}`);
  const destination = await (await ctx.provider()).lookupKey(check.normalized!);
  const words = keysMessages[await ctx.locale()];
  ctx.out.result({ key: check.normalized, type: check.type, found: destination !== null, destination }, () =>
    renderKeyLookup(ctx.out, words, DESTINATION_FIELDS, check.normalized!, destination),
  );
  return destination ? ExitCode.ok : ExitCode.inputRejected;
}

function renderKeyLookup(out: Output, words: KeysMessages, fields: readonly (keyof Destination)[], key: string, destination: Destination | null): void {
  if (!destination) return out.print(words.unknownKey(key));
  const value = (field: keyof Destination) => (field === 'accountType' ? (words.accountTypes[destination.accountType] ?? destination.accountType) : destination[field]);
  const rows = fields.filter((f) => destination[f] !== '').map((f) => [words.labels[f], value(f)]);
  out.print(out.table(['', ''], rows));
}

/** A key's check as `--json` has it: the reason as an English `error` sentence (null when valid). */
function keyCheckDocument(r: PixKeyCheck, locale: Locale) {
  return { input: r.input, valid: r.valid, type: r.type, normalized: r.normalized, ambiguousWith: r.ambiguousWith, error: r.reason === null ? null : sayValidation(r.reason, locale) };
}

function renderKeyChecks(out: Output, words: KeysMessages, results: readonly PixKeyCheck[], locale: Locale): void {
  const s = out.style;
  const w = words.check;
  out.print(
    out.table(
      [...w.header],
      results.map((r) => [
        r.input,
        r.valid ? s.green(w.yes) : s.red(w.no),
        r.type,
        r.normalized,
        r.reason !== null ? sayValidation(r.reason, locale) : r.ambiguousWith.length ? w.alsoValidAs(r.ambiguousWith.join(', ')) : '',
      ]),
    ),
  );
}
