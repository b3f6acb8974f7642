import { Option } from 'commander';
import type { Destination } from '../../domain/destination.js';
import { checkPixKey, type PixKeyCheck, type PixKeyType } from '../../domain/pix-key.js';
import { ExitCode, InputRejectedError } from '../../errors.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import type { Output } from '../output.js';
import { DESTINATION_FIELDS, keysMessages, type KeysMessages } from '../messages/keys.js';
import { arg, optionalChoice } from '../raw-input.js';

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

export const registerKeys: RegisterCommands = (program, runner) => {
  const keys = program.command('keys').description('check and look up Pix keys');
  keys
    .command('check')
    .description('validate and normalise Pix keys offline (CPF, CNPJ, phone, e-mail, random key)')
    .argument('<key...>', 'keys to check')
    .addOption(new Option('--type <type>', 'check every key as this type instead of detecting it').choices(KEY_TYPES))
    .addHelpText('after', '\nExamples:\n  paybatch keys check 123.456.789-09 +5511987654321 ana@example.com\n  paybatch keys check --type phone 11987654321 --json')
    .action(runner.action(parseKeysCheckOptions, runKeysCheck));

  keys
    .command('lookup')
    .description("ask the provider who a Pix key belongs to (checked offline first)")
    .argument('<key>', 'the Pix key')
    .addOption(new Option('--type <type>', 'the key type, when it could be either CPF or phone').choices(KEY_TYPES))
    .addHelpText('after', '\nExamples:\n  paybatch keys lookup 529.982.247-25\n  paybatch keys lookup 11987654374 --type phone --json')
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
  const results = opts.keys.map((k) => checkPixKey(k, opts.type));
  ctx.out.result(results, () => renderKeyChecks(ctx.out, results));
  return results.every((r) => r.valid) ? ExitCode.ok : ExitCode.inputRejected;
}

export async function runKeysLookup(ctx: Context, opts: KeysLookupOptions): Promise<number> {
  const check = checkPixKey(opts.key, opts.type);
  if (!check.valid) throw new InputRejectedError(`${opts.key}: ${check.error}`);
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

function renderKeyChecks(out: Output, results: readonly PixKeyCheck[]): void {
  const s = out.style;
  out.print(
    out.table(
      ['key', 'valid', 'type', 'normalized', 'note'],
      results.map((r) => [
        r.input,
        r.valid ? s.green('yes') : s.red('no'),
        r.type,
        r.normalized,
        r.error ?? (r.ambiguousWith.length ? `could also be: ${r.ambiguousWith.join(', ')} (pass --type)` : ''),
      ]),
    ),
  );
}
