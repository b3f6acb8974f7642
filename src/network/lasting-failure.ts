// Failures of reaching a provider that sending the same call again cannot mend.

/**
 * TLS alerts by which a server refuses the handshake over this client's certificate (none sent, unknown CA, expired,
 * not allowed): the request was never processed, and sending it again cannot help.
 */
export const HANDSHAKE_REFUSAL = /^ERR_SSL_.*ALERT_(CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE|UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_EXPIRED|CERTIFICATE_REVOKED|CERTIFICATE_UNKNOWN|UNSUPPORTED_CERTIFICATE|ACCESS_DENIED)$/;

/** The server's certificate is not trusted here: the same on every attempt until the CAs or the URL change. */
export const UNTRUSTED_SERVER = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * A failure no retry can mend (a refused client certificate, an untrusted server certificate, a proxy that wants
 * credentials or forbids the host): retrying would only delay the message that says what to change.
 */
export function isLastingFailure(e: { readonly code: string | null }): boolean {
  const code = e.code ?? '';
  return HANDSHAKE_REFUSAL.test(code) || UNTRUSTED_SERVER.has(code) || code === 'PROXY_AUTH_REQUIRED' || code === 'PROXY_REFUSED';
}
