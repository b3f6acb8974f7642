import { readFileSync } from 'node:fs';
import { InvalidArgumentError, Option } from 'commander';
import { ExitCode, PaybatchError, UsageError } from '../../errors.js';
import type { SandboxOptions } from '../../sandbox/options.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { sandboxHelp } from '../messages/help/sandbox.js';
import { optionalNumber, optionalText, text } from '../raw-input.js';

/** `sandbox serve`: the sandbox's own options (checked by its resolveOptions when run), without the logger. */
export type SandboxServeOptions = Omit<SandboxOptions, 'logger'> & { readonly host: string; readonly port: number };

const number = (notNumber: string) => (text: string): number => {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(notNumber);
  return n;
};
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export const registerSandbox: RegisterCommands = (program, runner, locale) => {
  const h = sandboxHelp[locale];
  const s = h.serve;
  const sandbox = program.command('sandbox').description(h.group);
  sandbox
    .command('serve')
    .description(s.description)
    .option('--host <host>', s.host, '127.0.0.1')
    .addOption(new Option('--port <port>', s.port).argParser(number(s.notNumber('--port'))).default(0))
    .option('--state <file>', s.state)
    .addOption(new Option('--seed <n>', s.seed).argParser(number(s.notNumber('--seed'))))
    .addOption(new Option('--speed <x>', s.speed).argParser(number(s.notNumber('--speed'))))
    .option('--faults <spec>', s.faults)
    .addOption(new Option('--page-size <n>', s.pageSize).argParser(number(s.notNumber('--page-size'))))
    .option('--api-key <key>', s.apiKey, collect)
    .option('--client-id <id>', s.clientId)
    .option('--client-secret <secret>', s.clientSecret)
    .option('--start-time <iso>', s.startTime)
    .addOption(new Option('--token-ttl <seconds>', s.tokenTtl).argParser(number(s.notNumber('--token-ttl'))))
    .option('--admin-token <token>', s.adminToken)
    .addOption(new Option('--stale-seconds <s>', s.staleSeconds).argParser(number(s.notNumber('--stale-seconds'))))
    .addOption(new Option('--webhook-attempts <n>', s.webhookAttempts).argParser(number(s.notNumber('--webhook-attempts'))))
    .option('--tls-cert <file>', s.tlsCert)
    .option('--tls-key <file>', s.tlsKey)
    .option('--client-ca <file>', s.clientCa)
    .option('--dialect <name>', s.dialect)
    .addHelpText('after', s.examples)
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
