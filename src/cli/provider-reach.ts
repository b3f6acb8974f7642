import type { Profile } from '../config/profile.js';
import { ConfigError } from '../errors.js';
import { daysLeft, EXPIRY_WARNING_DAYS, type CertificateFacts } from '../network/certificate-facts.js';
import { readTlsFiles } from '../network/client-identity.js';
import type { Reach } from '../network/connector.js';
import { proxyFor } from '../network/proxy-rules.js';
import type { Locale } from '../words/locale.js';
import type { IO } from './io.js';
import type { Output } from './output.js';
import type { Prompter } from './prompter.js';

/** What reading the connection settings needs of a run (its Context). */
export interface ReachContext {
  readonly io: IO;
  readonly out: Output;
  readonly prompter: Prompter;
  now(): Date;
  locale(): Promise<Locale>;
}
import { connectionMessages } from './messages/connection.js';
import { secretInput } from './secret-input.js';

/**
 * How this run reaches its provider: the profile's client certificate and CA file, read and checked before any call
 * (an expired or mismatched certificate, a shared key file, a wrong passphrase stop the run naming the file), and
 * its proxy rules (the proxy setting over HTTPS_PROXY / HTTP_PROXY / NO_PROXY). Warns when the certificate ends
 * within 30 days. The passphrase of an encrypted key comes from PAYBATCH_CLIENT_PASSPHRASE, the file
 * PAYBATCH_CLIENT_PASSPHRASE_FILE names, or a hidden prompt — never a flag.
 */
export function reachOf(ctx: ReachContext, profile: Profile): Promise<Reach> {
  const known = reaches.get(ctx);
  if (known !== undefined) return known;
  const reach = readReach(ctx, profile);
  reaches.set(ctx, reach);
  return reach;
}

/** One reading per run: the files are read (and a passphrase asked) once. */
const reaches = new WeakMap<ReachContext, Promise<Reach>>();

/** What `provider check` and `config show` tell of the connection: the certificate (never its key) and the proxy. */
export interface ConnectionFacts {
  readonly certificate: { file: string; subject: string; issuer: string; notBefore: string; notAfter: string; daysLeft: number } | null;
  /** The proxy of calls to the base URL (its password masked) and where it was named; null: direct. */
  readonly proxy: { url: string; source: string } | null;
}

export function connectionFacts(reach: Reach, baseUrl: string | undefined, now: Date): ConnectionFacts {
  const c = reach.tls?.certificate ?? null;
  const route = baseUrl ? proxyFor(new URL(baseUrl), reach.proxy) : null;
  return {
    certificate: c && { file: c.file, subject: c.subject, issuer: c.issuer, notBefore: c.notBefore.toISOString(), notAfter: c.notAfter.toISOString(), daysLeft: daysLeft(c, now) },
    proxy: route && !('code' in route) ? { url: route.origin.href.replace(/\/$/, ''), source: route.source === 'setting' ? 'proxy setting' : route.source } : null,
  };
}

/** The facts as lines for people, in `locale`. */
export function connectionLines(f: ConnectionFacts, locale: Locale): string[] {
  const w = connectionMessages[locale];
  return [...(f.certificate ? [w.certificateLine(f.certificate)] : []), ...(f.proxy ? [w.proxyLine(f.proxy)] : [])];
}

async function readReach(ctx: ReachContext, profile: Profile): Promise<Reach> {
  // Errors under --json are in English, like every --json document.
  const w = connectionMessages[ctx.out.json ? 'en' : await ctx.locale()];
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

function warnIfExpiring(ctx: ReachContext, c: CertificateFacts): void {
  const days = daysLeft(c, ctx.now());
  if (days <= EXPIRY_WARNING_DAYS) ctx.out.warn(connectionMessages[ctx.out.locale].expiring({ file: c.file, subject: c.subject, notAfter: c.notAfter, days }));
}

function passphrase(ctx: ReachContext, file: string): Promise<string> {
  const w = connectionMessages[ctx.out.locale];
  return secretInput(ctx, 'PAYBATCH_CLIENT_PASSPHRASE', { question: w.passphraseOf(file), noTerminal: () => new ConfigError(w.noPassphrase(file)) });
}

function hintOf(said: { hint?: string }): { hint?: string } {
  return said.hint === undefined ? {} : { hint: said.hint };
}
