import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { ExitCode, formatProblem, InputRejectedError, PaybatchError, ProviderError, UsageError } from '../errors.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { positionals, type RegisterCommands, type Runner } from './command.js';
import { createContext, type Context, type GlobalOptions, type MainDeps } from './context.js';
import { processIO, type IO } from './io.js';
import { Output } from './output.js';
import { registerAlerts } from './commands/alerts.js';
import { registerBatch } from './commands/batch.js';
import { registerBoleto } from './commands/boleto/index.js';
import { registerConfig } from './commands/config.js';
import { registerDaemon } from './commands/daemon.js';
import { registerDemo } from './commands/demo.js';
import { registerEvents } from './commands/events.js';
import { registerImport } from './commands/import.js';
import { registerKeys } from './commands/keys.js';
import { registerLedger } from './commands/ledger.js';
import { registerProvider } from './commands/provider.js';
import { registerReceipts } from './commands/receipts.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerWebhook } from './commands/webhook.js';

const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };

const commandGroups: readonly RegisterCommands[] = [
  registerImport,
  registerBatch,
  registerKeys,
  registerDaemon,
  registerAlerts,
  registerEvents,
  registerReceipts,
  registerWebhook,
  registerProvider,
  registerBoleto,
  registerConfig,
  registerLedger,
  registerSandbox,
  registerDemo,
];

/** Runs paybatch with the given arguments (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], deps: MainDeps = {}): Promise<number> {
  const io = deps.io ?? processIO();
  let exitCode: number = ExitCode.ok;
  let ctx: Context | undefined;

  const runner: Runner = {
    action: (parse, run) => async (...commanderArgs) => {
      const cmd = commanderArgs.at(-1) as Command;
      ctx = createContext(io, toGlobals(cmd.optsWithGlobals()), deps);
      const opts = parse({ flags: cmd.opts(), args: positionals(cmd) });
      exitCode = (await run(ctx, opts)) ?? ExitCode.ok;
    },
  };
  const program = buildProgram(io, runner);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    return reportError(error, ctx?.out ?? fallbackOutput(io, argv));
  } finally {
    await ctx?.close();
  }
}

export function buildProgram(io: IO, runner: Runner): Command {
  const program = new Command('paybatch')
    .description('Pay many people and bills at once through a Pix provider, with a local ledger that never pays twice.')
    .version(version, '-V, --version', 'print the version')
    .option('--json', 'print exactly one JSON document on stdout (logs and progress go to stderr)', false)
    .addOption(new Option('--profile <name>', 'configuration profile to use').env('PAYBATCH_PROFILE'))
    .addOption(new Option('--ledger <path>', 'ledger database file').env('PAYBATCH_LEDGER'))
    .option('--no-color', 'never colour the output (NO_COLOR is honoured too)')
    .option('-q, --quiet', 'print only results and errors', false)
    .option('-v, --verbose', 'print details of what happens on stderr', false)
    .showSuggestionAfterError()
    .configureHelp({
      // "(default: false)" on every switch is noise; real defaults and environment variables stay.
      optionDescription: (o) =>
        [
          o.description,
          o.argChoices ? `(choices: ${o.argChoices.join(', ')})` : '',
          o.defaultValue !== undefined && o.defaultValue !== false && !o.negate ? `(default: ${JSON.stringify(o.defaultValue)})` : '',
          o.envVar ? `(env: ${o.envVar})` : '',
        ]
          .filter(Boolean)
          .join(' '),
    })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .addHelpText('after', '\nExit codes: 0 ok, 1 failure, 2 usage, 3 input rejected, 4 attention needed.');
  for (const register of commandGroups) register(program, runner);
  return program;
}

function toGlobals(o: Record<string, unknown>): GlobalOptions {
  return {
    json: Boolean(o.json),
    profile: o.profile as string | undefined,
    ledger: o.ledger as string | undefined,
    color: o.color !== false,
    quiet: Boolean(o.quiet),
    verbose: Boolean(o.verbose),
  };
}

/** Errors before a command ran (usage) still honour --json and --no-color. */
function fallbackOutput(io: IO, argv: readonly string[]): Output {
  return new Output(io, { json: argv.includes('--json'), quiet: false, verbose: false, color: !argv.includes('--no-color') });
}

/** The one place that maps errors to messages and exit codes. */
function reportError(error: unknown, out: Output): number {
  if (error instanceof CommanderError) {
    const shown = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
    if (shown) return ExitCode.ok;
    if (error.code === 'commander.executeSubCommandAsync') return error.exitCode;
    // commander has already printed its message on stderr.
    if (out.json && !out.jsonDone) out.writeJson({ ok: false, error: { type: 'UsageError', message: error.message, exitCode: ExitCode.usage } });
    return ExitCode.usage;
  }
  if (error instanceof PaybatchError) {
    out.error(error.message);
    if (error instanceof InputRejectedError) for (const p of error.problems) out.info(`  ${formatProblem(p)}`);
    if (error.hint) out.info(error.hint);
    if (error instanceof UsageError) out.info("Run 'paybatch --help' for usage.");
    if (out.json && !out.jsonDone) out.writeJson({ ok: false, error: errorDocument(error) });
    return error.exitCode;
  }
  const err = error instanceof Error ? error : new Error(String(error));
  out.error(`unexpected: ${err.message}`);
  out.info(err.stack ?? '');
  out.info('This is a bug in paybatch; please report it with the command you ran.');
  if (out.json && !out.jsonDone) out.writeJson({ ok: false, error: { type: 'Unexpected', message: err.message, exitCode: ExitCode.failure } });
  return ExitCode.failure;
}

function errorDocument(error: PaybatchError): Record<string, unknown> {
  const doc: Record<string, unknown> = { type: error.name, message: error.message, exitCode: error.exitCode };
  if (error.hint) doc.hint = error.hint;
  if (error instanceof InputRejectedError) doc.problems = error.problems;
  if (error instanceof ProviderError) Object.assign(doc, { status: error.status, method: error.method, path: error.path, code: error.code });
  return doc;
}
