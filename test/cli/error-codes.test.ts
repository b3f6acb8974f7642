import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CancelledError, ConfigError, InputRejectedError, PaybatchError, ProviderError, UsageError } from '../../src/errors.js';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

describe('error types (the `type` of --json errors)', () => {
  it.each<[string, PaybatchError, string]>([
    ['PaybatchError', new PaybatchError('x'), 'failed'],
    ['UsageError', new UsageError('x'), 'usage'],
    ['InputRejectedError', new InputRejectedError('x'), 'input_invalid'],
    ['ConfigError', new ConfigError('x'), 'config_invalid'],
    ['CancelledError', new CancelledError(), 'cancelled'],
    ['ProviderError without an answer (ECONNREFUSED)', new ProviderError('x', { status: null, method: 'GET', path: '/p', code: 'ECONNREFUSED' }), 'provider_unreachable'],
    ['ProviderError, no answer in time', new ProviderError('x', { status: null, method: 'GET', path: '/p', code: 'UND_ERR_HEADERS_TIMEOUT' }), 'provider_unreachable'],
    ['ProviderError with an HTTP answer', new ProviderError('x', { status: 422, method: 'POST', path: '/p', code: 'invalid_key' }), 'provider_error'],
    ['ProviderError refused locally (a cursor loop)', new ProviderError('x', { status: null, method: 'GET', path: '/p', code: 'cursor_loop' }), 'provider_error'],
  ])('%s → %s', (_what, error, type) => {
    expect(error.type).toBe(type);
  });
});

describe('--json errors from the CLI', () => {
  const envOf = (dir: string, extra: Record<string, string>) => ({ XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir, ...extra });

  it('config_invalid: a base URL without the rest of the connection', async () => {
    const r = await runCli(['keys', 'lookup', 'ana@example.com', '--json'], { env: envOf(tempDir(), { PAYBATCH_BASE_URL: 'http://127.0.0.1:9' }) });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ ok: false, error: { type: 'config_invalid', exitCode: 1 } });
    expect(JSON.stringify(doc)).not.toContain('ConfigError');
  });

  it('provider_unreachable: nothing listens at the provider', async () => {
    const env = envOf(tempDir(), {
      PAYBATCH_BASE_URL: 'http://127.0.0.1:9',
      PAYBATCH_TOKEN_URL: 'http://127.0.0.1:9/token',
      PAYBATCH_CLIENT_ID: 'id',
      PAYBATCH_CLIENT_SECRET: 'secret',
      PAYBATCH_API_KEY: 'key',
    });
    const r = await runCli(['keys', 'lookup', 'ana@example.com', '--json'], { env });
    expect(r.code).toBe(1);
    const { error } = JSON.parse(r.stdout);
    expect(error).toMatchObject({ type: 'provider_unreachable', status: null, code: 'ECONNREFUSED', exitCode: 1 });
    expect(error.message).not.toMatch(/^error: /);
    expect(JSON.stringify(error)).not.toContain('secret');
  }, 30_000);
});
