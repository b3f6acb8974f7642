import type { Profile } from '../config/profile.js';
import { envName, type SettingName } from '../config/settings.js';
import { ConfigError } from '../errors.js';
import type { Reach } from '../network/connector.js';
import type { ProviderClient } from '../provider/client.js';
import { dialectOf } from '../provider/dialect.js';
import type { ProviderClientOptions, ProviderEvent } from '../provider/types.js';
import type { Output } from './output.js';

/**
 * The provider client for a profile. With no base URL configured this starts the sandbox inside this process on a
 * loopback port (state beside the ledger) and says SANDBOX on stderr; paybatch still talks to it over HTTP.
 */
export async function connectProvider(
  profile: Profile,
  o: { sandboxState: string; out: Output; reach?: Reach },
): Promise<{ client: ProviderClient; close: () => Promise<void> }> {
  const { ProviderClient } = await import('../provider/client.js');
  const s = profile.settings;
  const waitMs = s.requestTimeout * 1000;
  const endpoint = profile.embeddedSandbox ? await embeddedSandbox(profile, o) : configuredProvider(profile);
  const client = new ProviderClient({
    ...endpoint.credentials,
    // The embedded sandbox is met like any provider: through the same lenient dialect, unless the profile pins choices.
    dialect: dialectOf(s),
    timeouts: { connectMs: Math.min(10_000, waitMs), headersMs: waitMs, bodyMs: waitMs },
    // The embedded sandbox listens on loopback over HTTP: no certificate, never a proxy.
    ...(profile.embeddedSandbox || !o.reach ? {} : { reach: o.reach }),
    onEvent: (e: ProviderEvent) => o.out.debug(describeEvent(e)),
  });
  return {
    client,
    close: async () => {
      await client.close();
      await endpoint.stop();
    },
  };
}

type Credentials = Pick<ProviderClientOptions, 'baseUrl' | 'tokenUrl' | 'apiKey' | 'clientId' | 'clientSecret' | 'pixAmountUnit' | 'billAmountUnit'>;

async function embeddedSandbox(profile: Profile, o: { sandboxState: string; out: Output }): Promise<{ credentials: Credentials; stop: () => Promise<void> }> {
  const { startSandbox } = await import('../sandbox/server.js');
  const s = profile.settings;
  const sandbox = await startSandbox({
    host: '127.0.0.1', port: 0, stateFile: o.sandboxState, seed: s.sandboxSeed, speed: s.sandboxSpeed, faults: s.sandboxFaults, dialect: s.sandboxDialect,
  });
  o.out.notice(o.out.words.sandbox(sandbox.url, s.sandboxDialect === 'paybatch' ? null : s.sandboxDialect));
  const { url: baseUrl, tokenUrl, apiKey, clientId, clientSecret } = sandbox;
  // The embedded sandbox's units are known, whatever the profile says of a real provider: its `iso` dialect speaks
  // reais for Pix; every dialect's bills are in reais.
  const pixAmountUnit = s.sandboxDialect === 'iso' ? 'reais' : 'cents';
  return { credentials: { baseUrl, tokenUrl, apiKey, clientId, clientSecret, pixAmountUnit, billAmountUnit: 'reais' }, stop: () => sandbox.close() };
}

function configuredProvider(profile: Profile): { credentials: Credentials; stop: () => Promise<void> } {
  const s = profile.settings;
  const required: SettingName[] = ['baseUrl', 'tokenUrl', 'apiKey', 'clientId', 'clientSecret'];
  const missing = required.filter((k) => !s[k]);
  if (missing.length) {
    const [settings, variables] = [missing.join(', '), missing.map(envName).join(', ')];
    throw new ConfigError(`The profile "${profile.name}" has a base URL but no ${settings}.`, {
      hint: `Set them with 'paybatch config set' or the environment (${variables}).`,
      reason: { code: 'provider_settings_missing', profile: profile.name, settings, variables },
    });
  }
  return {
    credentials: { baseUrl: s.baseUrl!, tokenUrl: s.tokenUrl!, apiKey: s.apiKey!, clientId: s.clientId!, clientSecret: s.clientSecret! },
    stop: async () => undefined,
  };
}

function describeEvent(e: ProviderEvent): string {
  switch (e.type) {
    case 'request':
      return `→ ${e.method} ${e.path}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}`;
    case 'response':
      return `← ${e.status} ${e.method} ${e.path} ${e.ms} ms`;
    case 'failure':
      return `✗ ${e.method} ${e.path}: ${e.cause}${e.outcomeUnknown ? ' (outcome unknown)' : ''}`;
    case 'retry':
      return `  retrying ${e.method} ${e.path} in ${e.delayMs} ms: ${e.reason}`;
    case 'token':
      return `token ${e.action}`;
    case 'warning':
      return e.message;
  }
}
