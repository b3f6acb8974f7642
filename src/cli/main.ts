import type { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Argument, Command, CommanderError, Help, Option } from 'commander';
import { ApprovalRequiredError, CancelledError, ExitCode, InputRejectedError, PaybatchError, ProviderError, UsageError } from '../errors.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { withoutPasswords } from '../domain/ledger-location.js';
import { isLedgerUnavailable } from '../engine/ledger-door.js';
import { positionals, type RegisterCommands, type Runner } from './command.js';
import { createContext, type Context, type GlobalOptions, type MainDeps } from './context.js';
import { resolveLocale } from '../words/locale.js';
import { languageEnv, processIO, type IO } from './io.js';
import { programHelp, type ProgramHelp } from './messages/help/program.js';
import { usageErrorIn } from './messages/usage-errors.js';
import { Output } from './output.js';

/** paybatch's version, read when it is asked for: most runs never are. */
let knownVersion: string | undefined;
const version = (): string => (knownVersion ??= (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version);

/**
 * Each module of cli/commands/ with the top-level commands it registers, in the order help lists them. A run loads
 * only the module its command needs: compiling every command's module and building all of commander's commands was
 * a third of the start-up of `paybatch keys check`.
 */
const COMMAND_GROUPS: readonly { commands: readonly string[]; load: () => Promise<RegisterCommands> }[] = [
  { commands: ['import', 'template'], load: async () => (await import('./commands/import.js')).registerImport },
  { commands: ['batch'], load: async () => (await import('./commands/batch.js')).registerBatch },
  { commands: ['keys'], load: async () => (await import('./commands/keys.js')).registerKeys },
  { commands: ['daemon'], load: async () => (await import('./commands/daemon.js')).registerDaemon },
  { commands: ['alerts'], load: async () => (await import('./commands/alerts.js')).registerAlerts },
  { commands: ['events'], load: async () => (await import('./commands/events.js')).registerEvents },
  { commands: ['receipts'], load: async () => (await import('./commands/receipts.js')).registerReceipts },
  { commands: ['report'], load: async () => (await import('./commands/report.js')).registerReport },
  { commands: ['webhook'], load: async () => (await import('./commands/webhook.js')).registerWebhook },
  { commands: ['provider'], load: async () => (await import('./commands/provider.js')).registerProvider },
  { commands: ['boleto'], load: async () => (await import('./commands/boleto/index.js')).registerBoleto },
  { commands: ['config'], load: async () => (await import('./commands/config.js')).registerConfig },
  { commands: ['ledger'], load: async () => (await import('./commands/ledger.js')).registerLedger },
  { commands: ['sandbox'], load: async () => (await import('./commands/sandbox.js')).registerSandbox },
  { commands: ['demo'], load: async () => (await import('./commands/demo.js')).registerDemo },
  { commands: ['approver'], load: async () => (await import('./commands/approvals.js')).registerApprover },
  { commands: ['approvals'], load: async () => (await import('./commands/approvals.js')).registerApprovals },
  { commands: ['ui'], load: async () => (await import('./commands/ui.js')).registerUi },
  { commands: ['reconcile'], load: async () => (await import('./commands/reconcile.js')).registerReconcile },
];

/** Global options that take a value, so the word after them is not the command. */
const GLOBAL_VALUE_OPTIONS = ['--profile', '--ledger'];

/**
 * The command modules a command line needs: the one registering the command it names; none for `--version` alone;
 * every one otherwise (help, no command, a mistyped one that commander suggests a name for).
 */
export async function commandGroupsFor(argv: readonly string[]): Promise<RegisterCommands[]> {
  let command: string | undefined;
  for (let i = 0; i < argv.length && command === undefined; i++) {
    const word = argv[i] as string;
    if (word === '--') break;
    if (GLOBAL_VALUE_OPTIONS.includes(word)) i++;
    else if (!word.startsWith('-')) command = word;
  }
  if (command === undefined && (argv.includes('--version') || argv.includes('-V'))) return [];
  const named = COMMAND_GROUPS.find((g) => command !== undefined && g.commands.includes(command));
  return Promise.all((named ? [named] : COMMAND_GROUPS).map((g) => g.load()));
}

/** Runs paybatch with the given arguments (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], deps: MainDeps = {}): Promise<number> {
  // Without bin's readerGone, output to a reader gone is dropped.
  const io = deps.io ?? processIO(deps.readerGone ?? (() => {}));
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
  try {
    const program = buildProgram(io, runner, await commandGroupsFor(argv));
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    return await reportError(error, () => ctx?.out ?? fallbackOutput(io, argv));
  } finally {
    await ctx?.close();
  }
}

/**
 * The program with the commands `groups` register (see `commandGroupsFor`), its help in the language of the
 * environment (LC_ALL, LC_MESSAGES, LANG; pt-BR when they name none): the help is written before any profile is read.
 */
export function buildProgram(io: IO, runner: Runner, groups: readonly RegisterCommands[]): Command {
  const locale = resolveLocale(undefined, languageEnv(io));
  const h = programHelp[locale];
  const program = new Command('paybatch')
    .description(h.description)
    .version('', '-V, --version', h.version)
    .option('--json', h.json, false)
    .addOption(new Option('--profile <name>', h.profile).env('PAYBATCH_PROFILE'))
    .addOption(new Option('--ledger <path|url>', h.ledger))
    .option('--no-color', h.noColor)
    .option('-q, --quiet', h.quiet, false)
    .option('-v, --verbose', h.verbose, false)
    .helpOption('-h, --help', h.help)
    .showSuggestionAfterError()
    .helpCommand(false)
    .configureHelp({
      // Every subcommand's help lists --json, --profile and the other flags that work anywhere.
      showGlobalOptions: true,
      styleTitle: (title) => h.titles[title] ?? title,
      // commander writes "[options] [command]" in every usage line.
      commandUsage: (cmd) => h.usage(new Help().commandUsage(cmd)),
      subcommandTerm: (cmd) => h.usage(new Help().subcommandTerm(cmd)),
      // "(default: false)" on every switch is noise; real defaults and environment variables stay.
      optionDescription: (o) =>
        [
          o.description,
          o.argChoices ? h.choices(o.argChoices.join(', ')) : '',
          o.defaultValue !== undefined && o.defaultValue !== false && !o.negate ? h.defaultIs(JSON.stringify(o.defaultValue)) : '',
          o.envVar ? h.envIs(o.envVar) : '',
        ]
          .filter(Boolean)
          .join(' '),
    })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(usageErrorIn(locale, s)),
    })
    .addHelpText('after', h.examples);
  answerVersion(program, io);
  for (const register of groups) register(program, runner, locale);
  // Groups (keys, batch, …) get commander's own `help [command]`, worded like the rest.
  for (const group of program.commands) if (group.commands.length > 0) group.helpCommand(h.groupHelp.term, h.groupHelp.description);
  addHelpCommand(program, h);
  addShellCommands(program, io, h);
  return program;
}

/** \`--version\` honours --json wherever it stands: commander's own answer is plain text. */
function answerVersion(program: Command, io: IO): void {
  // commander's Command is an EventEmitter that keeps the arguments being parsed in rawArgs; its typings show neither.
  const emitter = program as unknown as EventEmitter & { rawArgs: string[] };
  emitter.removeAllListeners('option:version');
  emitter.on('option:version', () => {
    const v = version();
    io.stdout.write(emitter.rawArgs.includes('--json') ? `${JSON.stringify({ version: v })}\n` : `${v}\n`);
    throw new CommanderError(ExitCode.ok, 'commander.version', v);
  });
}

/** \`paybatch help keys check\`: the help of the command the whole path names (commander's stops at the first word). */
function addHelpCommand(program: Command, h: ProgramHelp): void {
  program
    .command('help')
    .description(h.helpCommand.description)
    .argument('[command...]', h.helpCommand.argument)
    .action((names: string[]) => {
      let cmd = program;
      for (const name of names) {
        const sub = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (!sub) throw new UsageError(h.helpCommand.noCommand(names.join(' ')));
        cmd = sub;
      }
      cmd.outputHelp();
    });
}

/**
 * `completion` and `man`, generated from the tree of commands. They name no command group, so `commandGroupsFor`
 * loads every group and the tree is whole when they run.
 */
function addShellCommands(program: Command, io: IO, h: ProgramHelp): void {
  program
    .command('completion')
    .description(h.completion.description)
    .addArgument(new Argument('<shell>', h.completion.argument).choices(['bash', 'zsh', 'fish']))
    .addHelpText('after', h.completion.examples)
    .action(async (shell: 'bash' | 'zsh' | 'fish', _opts: unknown, cmd: Command) => {
      const [{ commandTree }, { completionScript }] = await Promise.all([import('./command-tree.js'), import('./completion.js')]);
      const script = completionScript(commandTree(program), shell);
      io.stdout.write(cmd.optsWithGlobals().json ? `${JSON.stringify({ shell, script })}\n` : script);
    });
  program
    .command('man')
    .description(h.man.description)
    .addHelpText('after', h.man.examples)
    .action(async (_opts: unknown, cmd: Command) => {
      const [{ commandTree }, { manPage }] = await Promise.all([import('./command-tree.js'), import('./man-page.js')]);
      const roff = manPage(commandTree(program), { version: version(), date: new Date().toISOString().slice(0, 10) });
      io.stdout.write(cmd.optsWithGlobals().json ? `${JSON.stringify({ roff })}\n` : roff);
    });
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

/** The one place that maps errors to messages and exit codes. `output` is made only when there is something to say. */
async function reportError(error: unknown, output: () => Output): Promise<number> {
  if (error instanceof CommanderError && ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code)) return ExitCode.ok;
  if (error instanceof CommanderError && error.code === 'commander.executeSubCommandAsync') return error.exitCode;
  const out = output();
  if (error instanceof CommanderError) {
    // commander has already printed its message on stderr.
    if (out.json && !out.jsonDone) out.writeJson({ ok: false, error: { type: 'usage', message: error.message.replace(/^error: /, ''), exitCode: ExitCode.usage } });
    return ExitCode.usage;
  }
  if (error instanceof PaybatchError) {
    // The catalog of every reason, loaded only when there is one to say: most runs end without.
    const said = (await import('./messages/error-reasons.js')).sayError(error, out.locale);
    out.error(error instanceof CancelledError ? out.words.cancelled(error.nothing) : withoutPasswords(said.message));
    if (error instanceof InputRejectedError) for (const p of error.problems) out.info(`  ${out.problem(p)}`);
    if (said.hint) out.info(said.hint);
    if (error instanceof UsageError) out.info(out.words.usage);
    if (out.json && !out.jsonDone) out.writeJson({ ok: false, error: errorDocument(error, out) });
    return error.exitCode;
  }
  const err = error instanceof Error ? error : new Error(String(error));
  if (isLedgerUnavailable(err)) {
    // The database went away or stayed busy mid-command: not a bug; what was committed stands.
    const message = withoutPasswords(`The ledger cannot be reached, or stayed busy with other hosts: ${err.message}`);
    out.error(message);
    out.info('Run the command again once the database answers: what was committed stands, and paybatch continues from there.');
    if (out.json && !out.jsonDone) out.writeJson({ ok: false, error: { type: 'ledger_unavailable', message, exitCode: ExitCode.failure } });
    return ExitCode.failure;
  }
  err.message = withoutPasswords(err.message);
  err.stack = err.stack === undefined ? undefined : withoutPasswords(err.stack);
  out.error(`${out.words.unexpected} ${err.message}`);
  out.info(err.stack ?? '');
  out.info(out.words.bug);
  if (out.json && !out.jsonDone) out.writeJson({ ok: false, error: { type: 'unexpected', message: err.message, exitCode: ExitCode.failure } });
  return ExitCode.failure;
}

function errorDocument(error: PaybatchError, out: Output): Record<string, unknown> {
  const doc: Record<string, unknown> = { type: error.type, message: out.forProfile(withoutPasswords(error.message)), exitCode: error.exitCode };
  if (error.hint) doc.hint = out.forProfile(error.hint);
  if (error.reason) doc.code = error.reason.code;
  if (error instanceof InputRejectedError) doc.problems = error.problems;
  if (error instanceof ApprovalRequiredError) doc.approvals = error.approvals;
  if (error instanceof ProviderError) Object.assign(doc, { status: error.status, method: error.method, path: error.path, code: error.code });
  return doc;
}
