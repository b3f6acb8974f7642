import { readFileSync } from 'node:fs';
import { InvalidArgumentError, Option } from 'commander';
import { ExitCode, PaybatchError, UsageError } from '../../errors.js';
import type { SandboxOptions } from '../../sandbox/options.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { optionalNumber, optionalText, text } from '../raw-input.js';

/** `sandbox serve`: the sandbox's own options (checked by its resolveOptions when run), without the logger. */
export type SandboxServeOptions = Omit<SandboxOptions, 'logger'> & { readonly host: string; readonly port: number };

const number = (what: string) => (text: string): number => {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`${what} must be a number.`);
  return n;
};
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export const registerSandbox: RegisterCommands = (program, runner) => {
  const sandbox = program.command('sandbox').description('a local provider for rehearsals and tests (no real money)');
  sandbox
    .command('serve')
    .description('run the sandbox provider over HTTP until Ctrl-C (SIGINT) or SIGTERM')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .addOption(new Option('--port <port>', 'port to listen on; 0 picks a free one').argParser(number('--port')).default(0))
    .option('--state <file>', 'SQLite state file, kept across restarts (default: a temporary one)')
    .addOption(new Option('--seed <n>', 'seed of every random draw, to replay a run (default: the state file\'s, or fresh)').argParser(number('--seed')))
    .addOption(new Option('--speed <x>', 'simulated seconds per real second (default 1)').argParser(number('--speed')))
    .option('--faults <spec>', 'fault rates, e.g. http5xx=0.05,lostResponse=0.02,stale=0.02 (default: none)')
    .addOption(new Option('--page-size <n>', 'entries per page of the list endpoints (default 50)').argParser(number('--page-size')))
    .option('--api-key <key>', 'an accepted API key, each its own account; repeat for more (default: sandbox-api-key)', collect)
    .option('--client-id <id>', 'OAuth client id (default: sandbox-client)')
    .option('--client-secret <secret>', 'OAuth client secret (default: sandbox-secret)')
    .option('--start-time <iso>', 'where the simulated clock of a new state starts, e.g. 2025-03-08T22:30:00-03:00')
    .addOption(new Option('--token-ttl <seconds>', 'access token lifetime in real seconds (default 3600)').argParser(number('--token-ttl')))
    .option('--admin-token <token>', 'token of the /_sandbox/ inspection routes (default: kept in the state file)')
    .addOption(new Option('--stale-seconds <s>', 'simulated seconds before a stale item answers an item-list query (default 1800)').argParser(number('--stale-seconds')))
    .addOption(new Option('--webhook-attempts <n>', 'delivery attempts of a webhook event before giving up (default 10)').argParser(number('--webhook-attempts')))
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM), with --tls-key')
    .option('--tls-key <file>', 'the key of --tls-cert (PEM)')
    .option('--client-ca <file>', 'demand a client certificate signed by this CA (PEM) on every connection: mutual TLS, as banks do; needs --tls-cert')
    .option(
      '--dialect <name>',
      'how to answer where the provider API leaves a choice open: paybatch (default; the choices paybatch was built on) ' +
        'or spec (the other ordinary choice on each point: 200 on create, approved/rejected/refunded items, ' +
        '{codigo,mensagem} errors, form-only OAuth, GET-only bill details, x-service-secret deliveries, …) ' +
        'or iso (upper-case statuses, ISO 20022 codes in errorCode, amounts in reais, 20-second tokens, 429s, ' +
        'HMAC over timestamp.nonce.body, an "accepted for processing" event before each outcome, …)',
    )
    .addHelpText(
      'after',
      '\nPrints one ready line (with --json, a JSON object with url, tokenUrl, apiKey, clientId, clientSecret, adminToken, dialect).' +
        '\nSee the README (The sandbox) for the faults, the status words, the 404 rules and the /_sandbox/ routes.' +
        '\n\nExamples:\n  paybatch sandbox serve --port 8790 --state sandbox.db\n  paybatch sandbox serve --json --port 0 --speed 100 --faults http5xx=0.05,lostResponse=0.02' +
        '\n  paybatch sandbox serve --dialect spec     # prove a client against choices paybatch did not make' +
        '\n  paybatch sandbox serve --dialect iso      # a provider in reais: set pixAmountUnit reais to pay it' +
        '\n  paybatch sandbox serve --tls-cert server.pem --tls-key server.key --client-ca company-ca.pem   # rehearse mutual TLS',
    )
    .action(runner.action(parseSandboxServeOptions, runSandboxServe));
};

export function parseSandboxServeOptions(raw: RawInput): SandboxServeOptions {
  const given = {
    stateFile: optionalText(raw, 'state'),
    seed: optionalNumber(raw, 'seed'),
    speed: optionalNumber(raw, 'speed'),
    faults: optionalText(raw, 'faults'),
    pageSize: optionalNumber(raw, 'pageSize'),
    apiKeys: apiKeysOf(raw),
    clientId: optionalText(raw, 'clientId'),
    clientSecret: optionalText(raw, 'clientSecret'),
    startTime: optionalText(raw, 'startTime'),
    tokenTtlSeconds: optionalNumber(raw, 'tokenTtl'),
    adminToken: optionalText(raw, 'adminToken'),
    staleSeconds: optionalNumber(raw, 'staleSeconds'),
    webhookAttempts: optionalNumber(raw, 'webhookAttempts'),
    dialect: optionalText(raw, 'dialect') as SandboxOptions['dialect'],
  };
  const set = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<typeof given>;
  const tls = tlsOf(optionalText(raw, 'tlsCert'), optionalText(raw, 'tlsKey'), optionalText(raw, 'clientCa'));
  return { host: text(raw, 'host', '127.0.0.1'), port: optionalNumber(raw, 'port') ?? 0, ...set, ...(tls ? { tls } : {}) };
}

/** The HTTPS files, read: both of --tls-cert and --tls-key or neither; --client-ca only with them. */
function tlsOf(cert: string | undefined, key: string | undefined, clientCa: string | undefined): SandboxOptions['tls'] {
  if (!cert && !key) {
    if (clientCa) throw new UsageError('--client-ca needs --tls-cert and --tls-key: mutual TLS runs over HTTPS.');
    return undefined;
  }
  if (!cert || !key) throw new UsageError('--tls-cert and --tls-key go together.');
  const read = (flag: string, file: string): string => {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`${flag} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  };
  return { cert: read('--tls-cert', cert), key: read('--tls-key', key), ...(clientCa ? { clientCa: read('--client-ca', clientCa) } : {}) };
}

function apiKeysOf(raw: RawInput): string[] | undefined {
  const v = raw.flags['apiKey'];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((k) => typeof k === 'string')) throw new UsageError('--api-key takes a value.');
  return v;
}

export async function runSandboxServe(ctx: Context, opts: SandboxServeOptions): Promise<number> {
  const { resolveOptions } = await import('../../sandbox/options.js');
  const { formatFaults } = await import('../../sandbox/faults.js');
  const { startSandbox } = await import('../../sandbox/server.js');
  const options: SandboxOptions = { ...opts, logger: (line: string) => ctx.out.info(`sandbox: ${line}`) };
  const checked = resolveOptions(options);
  if (!checked.ok) throw new UsageError(checked.error);
  const running = await startSandbox(options).catch((error: NodeJS.ErrnoException) => {
    if (!['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL'].includes(error.code ?? '')) throw error;
    throw new PaybatchError(`cannot listen on ${opts.host}:${opts.port}: ${error.message}`, { hint: 'Pick another --port (0 picks a free one) or --host.' });
  });
  const { close, ...ready } = running;
  ctx.out.result({ ...ready, speed: checked.value.speed, faults: formatFaults(checked.value.faults) }, () =>
    ctx.out.print(
      `SANDBOX provider listening on ${ready.url}${opts.tls?.clientCa ? ' (mutual TLS: client certificate required)' : ''} (token URL ${ready.tokenUrl}; API key ${ready.apiKey}; client ${ready.clientId} / ${ready.clientSecret}; ` +
        `admin token ${ready.adminToken}; seed ${ready.seed}; dialect ${ready.dialect}). No real money moves. Ctrl-C stops it.`,
    ),
  );
  const signal = await nextSignal();
  ctx.out.info(`sandbox: ${signal} received, stopping`);
  await close();
  return ExitCode.ok;
}

/** Resolves with the first SIGINT or SIGTERM, then stops listening for them. */
function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
