import type { Profile } from '../config/profile.js';
import { ConfigError } from '../errors.js';
import { daysLeft, EXPIRY_WARNING_DAYS, readTlsFiles, type CertificateFacts } from '../network/client-identity.js';
import type { Reach } from '../network/connector.js';
import { proxyFor } from '../network/proxy-rules.js';
import type { Context } from './context.js';
import { canPrompt } from './io.js';
import { connectionMessages } from './messages/connection.js';

/**
 * How this run reaches its provider: the profile's client certificate and CA file, read and checked before any call
 * (an expired or mismatched certificate, a shared key file, a wrong passphrase stop the run naming the file), and
 * its proxy rules (the proxy setting over HTTPS_PROXY / HTTP_PROXY / NO_PROXY). Warns when the certificate ends
 * within 30 days. The passphrase of an encrypted key comes from PAYBATCH_CLIENT_PASSPHRASE, the file
 * PAYBATCH_CLIENT_PASSPHRASE_FILE names, or a hidden prompt — never a flag.
 */
export async function reachOf(ctx: Context, profile: Profile): Promise<Reach> {
  const w = connectionMessages[await ctx.locale()];
  const { env } = ctx.io;
  const s = profile.settings;
  const proxy = { env, ...(s.proxy === undefined ? {} : { setting: s.proxy }) };
  for (const url of [s.baseUrl, s.tokenUrl]) {
    if (!url) continue;
    const route = proxyFor(new URL(url), proxy);
    if (route && 'code' in route) throw new ConfigError(w.proxy(route).message, hintOf(w.proxy(route)));
  }
  const files = {
    ...(s.clientCert ? { clientCert: s.clientCert } : {}),
    ...(s.clientKey ? { clientKey: s.clientKey } : {}),
    ...(s.clientPfx ? { clientPfx: s.clientPfx } : {}),
    ...(s.caFile ? { caFile: s.caFile } : {}),
  };
  const read = await readTlsFiles(files, { passphrase: () => passphrase(ctx, s.clientPfx ?? s.clientKey ?? ''), now: ctx.now(), env });
  if (!read.ok) {
    const said = w.tls(read.problem);
    throw new ConfigError(said.message, hintOf(said));
  }
  const certificate = read.identity?.certificate;
  if (certificate) warnIfExpiring(ctx, certificate);
  return { tls: read.identity, proxy };
}

function warnIfExpiring(ctx: Context, c: CertificateFacts): void {
  const days = daysLeft(c, ctx.now());
  if (days <= EXPIRY_WARNING_DAYS) ctx.out.warn(connectionMessages[ctx.out.locale].expiring({ file: c.file, subject: c.subject, notAfter: c.notAfter, days }));
}

async function passphrase(ctx: Context, file: string): Promise<string> {
  const { env } = ctx.io;
  if (env.PAYBATCH_CLIENT_PASSPHRASE) return env.PAYBATCH_CLIENT_PASSPHRASE;
  if (env.PAYBATCH_CLIENT_PASSPHRASE_FILE) {
    const { readFileSync } = await import('node:fs');
    try {
      return readFileSync(env.PAYBATCH_CLIENT_PASSPHRASE_FILE, 'utf8').replace(/\r?\n$/, '');
    } catch (e) {
      throw new ConfigError(`PAYBATCH_CLIENT_PASSPHRASE_FILE names a file that cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  const w = connectionMessages[ctx.out.locale];
  if (!canPrompt(ctx.io)) throw new ConfigError(w.noPassphrase(file));
  return ctx.prompter.password(w.passphraseOf(file));
}

function hintOf(said: { hint?: string }): { hint?: string } {
  return said.hint === undefined ? {} : { hint: said.hint };
}
