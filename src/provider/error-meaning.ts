/** What a provider's refusal means where its documentation does not say which status or body it answers with. */
import type { ProviderError } from '../errors.js';

/**
 * True when an error of the bill details POST may mean "this method is not served" rather than "no such bill or bad
 * code": any 4xx but 400, 401 and 422 (404, 405 and an API gateway's 403 among them), and a 5xx whose body is not
 * the provider's JSON (a gateway's error page).
 */
export function mayBeWrongMethod(e: ProviderError): boolean {
  if (e.status === null) return false;
  if (e.status >= 400 && e.status < 500) return e.status !== 400 && e.status !== 401 && e.status !== 422;
  return e.status >= 500 && (e.body === null || typeof e.body === 'string');
}

const ALREADY_PAID = [
  /already[ _-]?(been[ _-])?(paid|settled|liquidated)/i,
  /\bja[ _-]?(foi[ _-])?(pag[oa]|liquidad[oa]|quitad[oa])\b/i,
  /boleto[ _-]?(ja[ _-]?)?(pago|liquidado|quitado)/i,
  /(pagamento|titulo)[ _-]?(ja[ _-]?)?(efetuado|realizado|liquidado)[ _-]?anteriormente/i,
  /duplicate[ _-]?payment|pagamento[ _-]?duplicado/i,
];

/**
 * True when a refused bill payment says the bill was already paid: a 409, or a 400/422 whose code or message says
 * so in English or Portuguese ("already paid", "Boleto já pago", `BOLETO_PAGO`).
 */
export function isAlreadyPaid(e: ProviderError): boolean {
  if (e.status === 409) return true;
  if (e.status !== 400 && e.status !== 422) return false;
  const said = `${e.code ?? ''} ${e.message}`.normalize('NFD').replace(/\p{M}/gu, '');
  return ALREADY_PAID.some((re) => re.test(said));
}
