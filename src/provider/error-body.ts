import { ProviderError } from '../errors.js';
import type { HttpMethod, HttpResponse } from './http-transport.js';
import type { Redactor } from './redact.js';

/** Longest provider text kept in an error: message, text body. */
const MAX_TEXT = 2_000;
/** Longest JSON error body (serialised) kept whole; a longer one is kept as truncated text. */
const MAX_JSON = 8_000;

/** What could be read from an error answer of any provider: JSON in the sandbox's shape, other JSON, or text. */
export interface ErrorBodyInfo {
  /** The body, secrets masked: parsed JSON when it is JSON (and not huge), otherwise text, truncated; null when empty. */
  body: unknown;
  code: string | null;
  message: string | null;
  details: { field: string; problem: string }[];
}

/** Reads an error body of any shape without ever throwing. */
export function describeErrorBody(raw: Buffer, contentType: string | undefined, redactor: Redactor): ErrorBodyInfo {
  const text = redactor.text(raw.toString('utf8'));
  const none: ErrorBodyInfo = { body: null, code: null, message: null, details: [] };
  if (text.trim() === '') return none;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const isHtml = /html/i.test(contentType ?? '') || /^\s*</.test(text);
    return { ...none, body: truncate(text, MAX_TEXT), message: isHtml ? 'an HTML page' : oneLine(text) };
  }
  // Masked again after parsing: a secret with characters JSON escapes would not match in the raw text.
  json = redactor.value(json);
  const body = text.length > MAX_JSON ? truncate(JSON.stringify(json), MAX_TEXT) : json;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ...none, body, message: typeof json === 'string' ? oneLine(json) : null };
  }
  const o = json as Record<string, unknown>;
  const err = o['error'];
  if (typeof err === 'object' && err !== null && !Array.isArray(err)) {
    // The sandbox's shape: {"error":{"code","message","details":[{field,problem}]}}.
    const e = err as Record<string, unknown>;
    return { body, code: str(e['code']), message: str(e['message']) ?? str(e['description']), details: detailsOf(e['details']) };
  }
  // Other common shapes: {code,message} (or in Portuguese {codigo,mensagem}), OAuth {error,error_description}, RFC 9457 {type,title,detail}, frameworks
  // {statusCode,error:"Not Found",message}. A one-word snake_case `error` is a code; a phrase is a message.
  const errWord = typeof err === 'string' && /^[a-z][a-z0-9_.-]*$/.test(err) ? err : null;
  return {
    body,
    code: str(o['code']) ?? str(o['codigo']) ?? errWord,
    message: str(o['message']) ?? str(o['mensagem']) ?? str(o['error_description']) ?? str(o['detail']) ?? str(o['title']) ?? (errWord ? null : str(err)),
    details: detailsOf(o['details'] ?? o['errors']),
  };
}

function detailsOf(v: unknown): { field: string; problem: string }[] {
  if (!Array.isArray(v)) return [];
  return v.slice(0, 50).flatMap((d) => {
    if (typeof d !== 'object' || d === null) return typeof d === 'string' ? [{ field: '', problem: oneLine(d) }] : [];
    const r = d as Record<string, unknown>;
    const field = str(r['field']) ?? str(r['path']) ?? str(r['name']) ?? '';
    const problem = str(r['problem']) ?? str(r['message']) ?? str(r['reason']) ?? '';
    return field || problem ? [{ field, problem }] : [];
  });
}

function str(v: unknown): string | null {
  if (typeof v === 'string' && v.trim() !== '') return oneLine(v);
  if (typeof v === 'number') return String(v);
  return null;
}

function oneLine(s: string): string {
  return truncate(s.replace(/\s+/g, ' ').trim(), 300);
}

function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}… (${s.length - max} more characters)` : s;
}

const STATUS_HINTS: Record<number, string> = {
  400: 'The provider refused the request as malformed; see the details.',
  401: 'Check the API key and the OAuth client id and secret of the profile (`paybatch config show` masks them).',
  403: 'The credentials were accepted but this operation is not allowed: check that the product is contracted.',
  404: 'The provider does not know this resource.',
  408: 'The provider timed out waiting for the request; it can be repeated.',
  409: 'The provider holds something different under the same identifier; it was not changed.',
  422: 'The provider refused the data; see the details.',
  429: 'The provider is limiting the request rate; try again later.',
};

/** The ProviderError for an HTTP answer that is not a success. Secrets in the body are masked. */
export function errorFromResponse(
  method: HttpMethod,
  path: string,
  res: HttpResponse,
  redactor: Redactor,
  o: { message?: string; hint?: string; outcomeUnknown?: boolean } = {},
): ProviderError {
  const ct = res.headers['content-type'];
  const info = describeErrorBody(res.body, Array.isArray(ct) ? ct[0] : ct, redactor);
  const said = [info.code, info.message].filter((x): x is string => x !== null).join(': ');
  const details = info.details.slice(0, 5).map((d) => (d.field ? `${d.field}: ${d.problem}` : d.problem)).join('; ');
  const base = o.message ?? `${method} ${path} failed with HTTP ${res.status}`;
  const message = base + (said ? ` (${said})` : '') + (details ? ` [${details}]` : '');
  return new ProviderError(message, {
    status: res.status,
    method,
    path,
    code: info.code,
    body: info.body,
    outcomeUnknown: o.outcomeUnknown ?? false,
    hint: o.hint ?? STATUS_HINTS[res.status] ?? (res.status >= 500 ? 'The provider failed; try again later.' : undefined),
  });
}
