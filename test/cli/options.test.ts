import { describe, expect, it } from 'vitest';
import type { ParseOptions, RawInput } from '../../src/cli/command.js';
import { parseAlertsAckOptions, parseAlertsListOptions } from '../../src/cli/commands/alerts.js';
import { parseBatchActionOptions, parseBatchItemsOptions, parseBatchShowOptions } from '../../src/cli/commands/batch.js';
import { parseBoletoDecodeOptions } from '../../src/cli/commands/boleto/decode.js';
import { parseBoletoDetailsOptions } from '../../src/cli/commands/boleto/details.js';
import { parseBoletoListOptions } from '../../src/cli/commands/boleto/list.js';
import { parseBoletoResolveOptions } from '../../src/cli/commands/boleto/resolve.js';
import { parseBoletoPayOptions } from '../../src/cli/commands/boleto/pay.js';
import { parseConfigInitOptions, parseConfigSetOptions, parseConfigUnsetOptions } from '../../src/cli/commands/config.js';
import { parseDaemonOptions } from '../../src/cli/commands/daemon.js';
import { parseDemoOptions } from '../../src/cli/commands/demo.js';
import { parseEventsListOptions } from '../../src/cli/commands/events.js';
import { parseImportOptions, parseTemplateOptions } from '../../src/cli/commands/import.js';
import { parseKeysCheckOptions, parseKeysLookupOptions } from '../../src/cli/commands/keys.js';
import { parseLedgerBackupOptions } from '../../src/cli/commands/ledger.js';
import { parseProviderCheckOptions } from '../../src/cli/commands/provider.js';
import { parseReceiptsFetchOptions } from '../../src/cli/commands/receipts.js';
import { parseSandboxServeOptions } from '../../src/cli/commands/sandbox.js';
import { parseWebhookSubscribeOptions } from '../../src/cli/commands/webhook.js';
import { UsageError } from '../../src/errors.js';
import { optionsOf } from '../helpers/parsed-options.js';

const raw = (flags: Record<string, unknown> = {}, args: string[] = []): RawInput => ({ flags, args });

/** Each row: a parse, its raw input, the options it gives. */
type Row = [string, ParseOptions<unknown>, RawInput, unknown];

describe('command options: flags in, typed options out', () => {
  const rows: Row[] = [
    ['alerts list', parseAlertsListOptions, raw({ all: false }), { all: false }],
    ['alerts list --all', parseAlertsListOptions, raw({ all: true }), { all: true }],
    ['alerts ack all', parseAlertsAckOptions, raw({}, ['all']), { ids: 'all' }],
    ['alerts ack 3 5', parseAlertsAckOptions, raw({}, ['3', '5']), { ids: [3, 5] }],
    ['batch show 7', parseBatchShowOptions, raw({ refresh: false }, ['7']), { ref: '7', refresh: false }],
    ['batch show b_1 --refresh', parseBatchShowOptions, raw({ refresh: true }, ['b_1']), { ref: 'b_1', refresh: true }],
    ['batch items 7', parseBatchItemsOptions, raw({}, ['7']), { ref: '7' }],
    ['batch items 7 --status paid', parseBatchItemsOptions, raw({ status: 'paid' }, ['7']), { ref: '7', status: 'paid' }],
    ['batch start 7 --yes', parseBatchActionOptions, raw({ yes: true }, ['7']), { ref: '7', yes: true }],
    ['boleto decode in parts', parseBoletoDecodeOptions, raw({}, ['83680000000-9', '87450048001-5']), { code: '83680000000-9 87450048001-5' }],
    ['boleto details', parseBoletoDetailsOptions, raw({}, ['2379 3381']), { code: '2379 3381' }],
    ['boleto list --all', parseBoletoListOptions, raw({ all: true }), { all: true }],
    ['boleto resolve 12 --paid --transaction', parseBoletoResolveOptions, raw({ paid: true, transaction: 'tx-9', yes: false }, ['12']), { billId: 12, paid: true, transactionId: 'tx-9', yes: false }],
    ['boleto resolve #12 --not-paid --yes', parseBoletoResolveOptions, raw({ notPaid: true, yes: true }, ['#12']), { billId: 12, paid: false, transactionId: null, yes: true }],
    [
      'boleto pay <code> --amount --description',
      parseBoletoPayOptions,
      raw({ amount: '159,90', description: 'luz', yes: true, force: false }, ['8368', '0000']),
      { source: { kind: 'code', code: '8368 0000', amount: '159,90', description: 'luz' }, yes: true, force: false },
    ],
    ['boleto pay <code>', parseBoletoPayOptions, raw({ yes: false, force: true }, ['8368']), { source: { kind: 'code', code: '8368', amount: null, description: null }, yes: false, force: true }],
    ['boleto pay --file', parseBoletoPayOptions, raw({ file: 'contas.csv', yes: false, force: false }), { source: { kind: 'file', file: 'contas.csv' }, yes: false, force: false }],
    ['config set name value', parseConfigSetOptions, raw({}, ['baseUrl', 'https://x']), { name: 'baseUrl', value: 'https://x' }],
    ['config set name', parseConfigSetOptions, raw({}, ['apiKey']), { name: 'apiKey' }],
    ['config unset', parseConfigUnsetOptions, raw({}, ['apiKey']), { name: 'apiKey' }],
    ['config init --sandbox', parseConfigInitOptions, raw({ sandbox: true, receiptsDir: '/r' }), { sandbox: true, receiptsDir: '/r' }],
    [
      'daemon defaults',
      parseDaemonOptions,
      raw({ listen: '127.0.0.1:8787', interval: '30', logFormat: 'pretty', once: false, untilSettled: false }),
      { listen: { host: '127.0.0.1', port: 8787 }, once: false, intervalSeconds: 30, logFormat: 'pretty', untilSettled: false, timeoutSeconds: null },
    ],
    [
      'daemon --once --timeout 10m --public-url',
      parseDaemonOptions,
      raw({ listen: '0.0.0.0:9000', interval: '0.5', logFormat: 'json', once: true, untilSettled: true, timeout: '10m', publicUrl: 'https://h/webhooks' }),
      { listen: { host: '0.0.0.0', port: 9000 }, publicUrl: 'https://h/webhooks', once: true, intervalSeconds: 0.5, logFormat: 'json', untilSettled: true, timeoutSeconds: 600 },
    ],
    ['demo', parseDemoOptions, raw({ sheet: 'a.csv', timeout: '50' }), { sheet: 'a.csv', timeoutSeconds: 50 }],
    ['demo --dir', parseDemoOptions, raw({ sheet: 'a.csv', timeout: '5', dir: '/d' }), { sheet: 'a.csv', dir: '/d', timeoutSeconds: 5 }],
    ['events list', parseEventsListOptions, raw({ unknown: false, limit: 50 }), { limit: 50 }],
    ['events list --topic ted --limit 3', parseEventsListOptions, raw({ unknown: false, topic: 'ted', limit: 3 }), { topic: 'ted', limit: 3 }],
    ['events list --unknown wins over --topic', parseEventsListOptions, raw({ unknown: true, topic: 'pix', limit: 50 }), { topic: 'unknown', limit: 50 }],
    [
      'import sheet.csv --dry-run --name',
      parseImportOptions,
      raw({ name: 'folha', dryRun: true, start: false, yes: false, skipInvalid: false, allowDuplicates: true }, ['sheet.csv']),
      { file: 'sheet.csv', name: 'folha', dryRun: true, check: false, start: false, yes: false, skipInvalid: false, allowDuplicates: true },
    ],
    ['template', parseTemplateOptions, raw({ lang: 'pt' }), { lang: 'pt' }],
    ['template --lang en', parseTemplateOptions, raw({ lang: 'en' }), { lang: 'en' }],
    ['keys check', parseKeysCheckOptions, raw({}, ['a@b.example', '529.982.247-25']), { keys: ['a@b.example', '529.982.247-25'] }],
    ['keys check --type phone', parseKeysCheckOptions, raw({ type: 'phone' }, ['11987654321']), { keys: ['11987654321'], type: 'phone' }],
    ['keys lookup --type cpf', parseKeysLookupOptions, raw({ type: 'cpf' }, ['52998224725']), { key: '52998224725', type: 'cpf' }],
    ['ledger backup', parseLedgerBackupOptions, raw({}), {}],
    ['ledger backup --to', parseLedgerBackupOptions, raw({ to: '/b/l.db' }), { to: '/b/l.db' }],
    ['provider check', parseProviderCheckOptions, raw({ key: 'paybatch-check@example.com' }), { key: 'paybatch-check@example.com' }],
    ['provider check --bill --public-url', parseProviderCheckOptions, raw({ key: 'k', bill: '2379', publicUrl: 'https://h/webhooks' }), { key: 'k', bill: '2379', publicUrl: 'https://h/webhooks' }],
    ['receipts fetch', parseReceiptsFetchOptions, raw({ again: false }), { again: false }],
    ['receipts fetch --batch --out', parseReceiptsFetchOptions, raw({ batch: '3', out: '/o', again: false }), { batch: '3', out: '/o', again: false }],
    ['sandbox serve', parseSandboxServeOptions, raw({ host: '127.0.0.1', port: 0 }), { host: '127.0.0.1', port: 0 }],
    [
      'sandbox serve with everything',
      parseSandboxServeOptions,
      raw({ host: '0.0.0.0', port: 8790, state: 's.db', seed: 7, speed: 100, faults: 'http5xx=0.05', apiKey: ['a', 'b'], tokenTtl: 60, staleSeconds: 10, dialect: 'spec' }),
      { host: '0.0.0.0', port: 8790, stateFile: 's.db', seed: 7, speed: 100, faults: 'http5xx=0.05', apiKeys: ['a', 'b'], tokenTtlSeconds: 60, staleSeconds: 10, dialect: 'spec' },
    ],
    ['webhook subscribe', parseWebhookSubscribeOptions, raw({ url: 'https://h.example/webhooks' }), { url: 'https://h.example/webhooks' }],
  ];

  it.each(rows)('%s', (_name, parse, input, expected) => {
    expect(parse(input)).toEqual(expected);
  });
});

describe('command options: usage errors name the flag or argument', () => {
  const rows: [string, ParseOptions<unknown>, RawInput, RegExp][] = [
    ['alerts ack abc', parseAlertsAckOptions, raw({}, ['abc']), /alert numbers .* or "all"/],
    ['alerts ack 1 all', parseAlertsAckOptions, raw({}, ['1', 'all']), /alert numbers/],
    ['alerts ack 1.5', parseAlertsAckOptions, raw({}, ['1.5']), /alert numbers/],
    ['batch items --status', parseBatchItemsOptions, raw({ status: 'lost' }, ['7']), /^--status must be one of resolved, /],
    ['boleto pay with nothing', parseBoletoPayOptions, raw({}), /bill code .* or --file/],
    ['boleto resolve without a finding', parseBoletoResolveOptions, raw({}, ['3']), /^Say what the statement shows: --paid or --not-paid/],
    ['boleto resolve --paid --not-paid', parseBoletoResolveOptions, raw({ paid: true, notPaid: true }, ['3']), /--paid or --not-paid/],
    ['boleto resolve --not-paid --transaction', parseBoletoResolveOptions, raw({ notPaid: true, transaction: 't' }, ['3']), /^--transaction goes with --paid/],
    ['boleto resolve abc', parseBoletoResolveOptions, raw({ paid: true }, ['abc']), /^"abc" is not a bill number/],
    ['boleto pay code and --file', parseBoletoPayOptions, raw({ file: 'f.csv' }, ['8368']), /either a bill code or --file/],
    ['boleto pay --file --amount', parseBoletoPayOptions, raw({ file: 'f.csv', amount: '1' }), /^--amount is for one bill/],
    ['boleto pay --file --description', parseBoletoPayOptions, raw({ file: 'f.csv', description: 'd' }), /^--description is for one bill/],
    ['daemon --listen', parseDaemonOptions, raw({ listen: 'localhost', interval: '30' }), /^--listen must be host:port, not "localhost"/],
    ['daemon --listen port', parseDaemonOptions, raw({ listen: 'h:123456', interval: '30' }), /^--listen/],
    ['daemon --interval 0', parseDaemonOptions, raw({ listen: 'h:1', interval: '0' }), /^--interval must be a number of seconds above zero/],
    ['daemon --interval abc', parseDaemonOptions, raw({ listen: 'h:1', interval: 'abc' }), /^--interval/],
    ['daemon --timeout', parseDaemonOptions, raw({ listen: 'h:1', interval: '1', timeout: 'soon' }), /^--timeout: "soon" is not a duration/],
    ['daemon --log-format', parseDaemonOptions, raw({ listen: 'h:1', interval: '1', logFormat: 'xml' }), /^--log-format must be one of json, pretty/],
    ['demo --timeout abc', parseDemoOptions, raw({ sheet: 'a.csv', timeout: 'abc' }), /^--timeout must be a number of seconds above zero/],
    ['demo --timeout 0', parseDemoOptions, raw({ sheet: 'a.csv', timeout: '0' }), /^--timeout/],
    ['events list --limit 0', parseEventsListOptions, raw({ limit: 0 }), /^--limit must be a whole number above zero/],
    ['events list --topic', parseEventsListOptions, raw({ topic: 'card', limit: 5 }), /^--topic must be one of pix, bill, ted, unknown/],
    ['template --lang fr', parseTemplateOptions, raw({ lang: 'fr' }), /^--lang must be pt or en, not "fr"/],
    ['keys check --type iban', parseKeysCheckOptions, raw({ type: 'iban' }, ['x']), /^--type must be one of cpf, cnpj, phone, email, evp/],
    ['sandbox serve --port', parseSandboxServeOptions, raw({ host: 'h', port: 'abc' }), /^--port must be a number/],
    ['sandbox serve --token-ttl', parseSandboxServeOptions, raw({ host: 'h', port: 0, tokenTtl: 'NaN' }), /^--token-ttl must be a number/],
    ['webhook subscribe --url', parseWebhookSubscribeOptions, raw({ url: 'ftp://x' }), /^--url must be an http\(s\) URL, not "ftp:\/\/x"/],
  ];

  it.each(rows)('%s', (_name, parse, input, message) => {
    let error: unknown;
    try {
      parse(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('command options through commander: what a command line means, without running it', () => {
  const rows: [string[], unknown][] = [
    [['batch', 'show', '12', '--refresh'], { ref: '12', refresh: true }],
    [['batch', 'delete', 'b-1', '-y'], { ref: 'b-1', yes: true }],
    [['boleto', 'pay', '8368', '0000', '--amount', '1.234,56', '--force'], { source: { kind: 'code', code: '8368 0000', amount: '1.234,56', description: null }, yes: false, force: true }],
    [['boleto', 'decode', '2379', '3381'], { code: '2379 3381' }],
    [['daemon', '--once', '--timeout', '2h'], { listen: { host: '127.0.0.1', port: 8787 }, once: true, intervalSeconds: 30, logFormat: 'pretty', untilSettled: false, timeoutSeconds: 7200 }],
    [['events', 'list', '--unknown', '--limit', '5'], { topic: 'unknown', limit: 5 }],
    [['import', 'a.csv', '--dry-run', '--skip-invalid'], { file: 'a.csv', dryRun: true, check: false, start: false, yes: false, skipInvalid: true, allowDuplicates: false }],
    [['template'], { lang: 'pt' }],
    [['keys', 'check', '--type', 'email', 'a@b.example', 'c@d.example'], { keys: ['a@b.example', 'c@d.example'], type: 'email' }],
    [['sandbox', 'serve', '--port', '8790', '--api-key', 'k1', '--api-key', 'k2', '--speed', '100'], { host: '127.0.0.1', port: 8790, apiKeys: ['k1', 'k2'], speed: 100 }],
    [['config', 'init', '--base-url', 'https://api.example', '--max-item-amount', '10.000,00'], { baseUrl: 'https://api.example', maxItemAmount: '10.000,00', sandbox: false }],
    [['config', 'init', '--webhook-verification', 'hmac'], { webhookVerification: 'hmac', sandbox: false }],
    [['provider', 'check', '--public-url', 'https://h/webhooks'], { key: 'paybatch-check@example.com', publicUrl: 'https://h/webhooks' }],
    [['alerts', 'ack', '4', '9', '--json'], { ids: [4, 9] }],
    [['ledger', 'check'], {}],
  ];

  it.each(rows)('%j', async (argv, expected) => {
    expect(await optionsOf(argv)).toEqual(expected);
  });
});
