import { PaybatchError } from '../../errors.js';
import type { ProviderClient } from '../../provider/client.js';
import type { Batch, Item } from '../../provider/types.js';

/** One thing `provider check` tried. `required`: payments cannot work without it. */
export interface CheckStep {
  readonly name: 'token' | 'api' | 'amount unit' | 'bill amount unit' | 'key lookup' | 'items' | 'bill details' | 'webhook';
  readonly ok: boolean;
  readonly required: boolean;
  readonly detail: string;
  /** Set, but nothing the API answers can confirm it: the profile's word, never shown as verified. */
  readonly unverified?: true;
}

export interface ProviderCheck {
  /** Everything needed for payments works. */
  readonly ready: boolean;
  readonly steps: readonly CheckStep[];
  /** Settings worth pinning in the profile, from what the provider was seen to do. */
  readonly recommend: Readonly<Record<string, string>>;
}

export interface CheckOptions {
  /** A Pix key to look up; a key nobody holds still proves the endpoint (a 404 is an answer). */
  readonly key: string;
  /** A real bill's line or barcode, to learn the details method; skipped without one. */
  readonly billCode?: string;
  /** The receiver's public URL (ending in /webhooks): its /healthz is asked through it. */
  readonly publicUrl?: string;
  /** Fetches a URL (injected so tests and the CLI share one path); default global fetch. */
  readonly fetchJson?: (url: string) => Promise<{ status: number; body: unknown }>;
}

/**
 * Checks, without moving money, each thing paybatch needs from the provider with the profile's settings: a token
 * (and which client authentication the endpoint takes), the API key on a listing, a key lookup, the item pages of the
 * newest batch (status words and Pix ids paybatch can read), the bill details method, and the webhook receiver behind
 * the public URL. Stops at the token when there is none: nothing else can work.
 */
export async function checkProvider(provider: ProviderClient, o: CheckOptions): Promise<ProviderCheck> {
  const steps: CheckStep[] = [];
  const recommend: Record<string, string> = {};
  const attempt = async (name: CheckStep['name'], required: boolean, fn: () => Promise<string>): Promise<boolean> => {
    try {
      steps.push({ name, ok: true, required, detail: await fn() });
      return true;
    } catch (e) {
      if (!(e instanceof PaybatchError)) throw e;
      steps.push({ name, ok: false, required, detail: e.hint ? `${e.message.replace(/\.$/, '')}. ${e.hint}` : e.message });
      return false;
    }
  };

  const tokenOk = await attempt('token', true, async () => {
    const method = await provider.authenticate();
    recommend['tokenAuth'] = method;
    return `an access token was issued (client authentication: ${method === 'basic' ? 'HTTP Basic' : 'form body'})`;
  });
  if (!tokenOk) return { ready: false, steps, recommend };
  steps.push(amountUnitStep(PIX_UNIT, provider.dialect.pixAmountUnit));
  steps.push(amountUnitStep(BILL_UNIT, provider.dialect.billAmountUnit));

  let newest: Batch | null = null;
  await attempt('api', true, async () => {
    // The first page proves the API key and the listing; its newest batch shows what items look like.
    for await (const page of provider.batches()) {
      newest = page.reduce<Batch | null>((a, b) => (a === null || b.timestamp >= a.timestamp ? b : a), null);
      return `the API key is accepted; batches listed (${page.length} on the first page)`;
    }
    return 'the API key is accepted; no batches yet';
  });

  await attempt('key lookup', true, async () => {
    const found = await provider.lookupKey(o.key);
    return found ? `${o.key} belongs to ${found.name || 'someone'} at ${found.institutionName || 'an institution'}` : `the lookup answers (nobody holds ${o.key})`;
  });

  const batch = newest as Batch | null;
  if (batch !== null) {
    await attempt('items', false, async () => {
      const items: Item[] = [];
      for await (const page of provider.items(batch.id)) {
        items.push(...page);
        if (items.length >= 200) break;
      }
      const unknown = [...new Set(items.filter((i) => i.state === null).map((i) => i.status))];
      if (unknown.length) {
        recommend['statusWords'] = unknown.map((w) => `${w}=<submitted|processing|paid|failed|returned>`).join(',');
        throw new PaybatchError(`batch ${batch.id} has items with status words paybatch does not know: ${unknown.join(', ')}`, {
          hint: 'Map each one with the statusWords setting.',
        });
      }
      const paid = items.filter((i) => i.state === 'paid' || i.state === 'returned');
      const withId = paid.filter((i) => i.pixId !== undefined).length;
      const ids = paid.length === 0 ? 'no paid items to look for Pix ids in' : withId === paid.length ? 'paid items carry their Pix id, so receipts can be fetched by polling alone' : `${paid.length - withId} of ${paid.length} paid items carry no Pix id: their receipts need the provider's events (or pixIdFields naming the field)`;
      return `${items.length} items of batch ${batch.id} read; every status word is known; ${ids}`;
    });
  }

  if (o.billCode === undefined) {
    steps.push({ name: 'bill details', ok: true, required: false, detail: 'skipped: pass --bill with the line of a real bill to learn which method the details query takes' });
  } else {
    const code = o.billCode;
    await attempt('bill details', false, async () => {
      const d = await provider.boletoDetails(code);
      const method = provider.learnt().billDetailsMethod;
      if (method) recommend['billDetailsMethod'] = method;
      return `answered by ${method}: ${d.beneficiary || d.assignor || 'a bill'}, due ${d.dueDate || 'date not given'}`;
    });
  }

  if (o.publicUrl !== undefined) {
    const url = o.publicUrl;
    const fetchJson = o.fetchJson ?? defaultFetchJson;
    await attempt('webhook', true, async () => {
      const health = new URL('healthz', url.replace(/\/webhooks\/?$/, '/')).toString();
      let answer: { status: number; body: unknown };
      try {
        answer = await fetchJson(health);
      } catch (e) {
        throw new PaybatchError(`nothing answered at ${health} (${(e as Error).message})`, {
          hint: 'Start the daemon with its receiver, and make the proxy route the public URL to it.',
        });
      }
      const body = (answer.body ?? {}) as { ok?: unknown; ledger?: unknown; reason?: unknown; verification?: { detected?: unknown } };
      if (answer.status === 503 && body.ledger === 'unavailable') {
        throw new PaybatchError(`the receiver at ${health} answers, but its ledger cannot be reached (${String(body.reason)}): deliveries cannot be stored`, {
          hint: "Check the daemon's ledger (the database it names, its disk), then ask again.",
        });
      }
      if (answer.status !== 200 || body.ok !== true) {
        throw new PaybatchError(`${health} answered HTTP ${answer.status}, not a paybatch receiver`, { hint: 'Check that the public URL routes to the daemon.' });
      }
      const detected = Array.isArray(body.verification?.detected) ? (body.verification.detected as string[]) : [];
      if (detected.length === 1) recommend['webhookVerification'] = detected[0]!;
      return `the receiver answers through ${url}${detected.length ? `; deliveries seen proved by ${detected.join(', ')}` : '; no delivery seen yet'}`;
    });
  }

  return { ready: steps.every((s) => s.ok || !s.required), steps, recommend };
}

/** What the unit of each kind of amount is called, and how the provider's documentation would show it. */
interface UnitSetting {
  readonly step: 'amount unit' | 'bill amount unit';
  readonly setting: 'pixAmountUnit' | 'billAmountUnit';
  /** Bills are optional: a profile that pays only Pix is ready without their unit. */
  readonly required: boolean;
  readonly unset: string;
}
const PIX_UNIT: UnitSetting = {
  step: 'amount unit', setting: 'pixAmountUnit', required: true,
  unset: "no Pix payment is sent: read in the provider's documentation whether an item's amount is in centavos (1107 for R$ 11,07) or reais (11.07), then paybatch config set pixAmountUnit cents (or reais)",
};
const BILL_UNIT: UnitSetting = {
  step: 'bill amount unit', setting: 'billAmountUnit', required: false,
  unset: "no bill is paid: read in the provider's documentation whether a bill payment's amount is in reais (159.90 for R$ 159,90) or centavos (15990), then paybatch config set billAmountUnit reais (or cents)",
};

/**
 * The unit of amounts cannot be learnt from the API: a provider echoes an amount in the unit it read it in, so a
 * wrong unit looks right. Unset, it stops those payments; set, it is the profile's word and is said to be so.
 */
function amountUnitStep(u: UnitSetting, unit: 'cents' | 'reais' | null): CheckStep {
  if (unit === null) return { name: u.step, ok: false, required: u.required, detail: `${u.setting} is not set, so ${u.unset}` };
  return {
    name: u.step, ok: true, required: u.required, unverified: true,
    detail: `${unit}, as the profile says; the API cannot confirm it (the provider echoes an amount in the unit it read it in): make sure the provider's documentation says ${unit === 'cents' ? 'centavos' : 'reais'}`,
  };
}

async function defaultFetchJson(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: not a paybatch receiver, which the status and body check say
  }
  return { status: res.status, body };
}
