// What a client certificate says of itself, apart from reading it (which loads TLS): the daemon's alert needs only this.

/** What a client certificate says of itself, for people (never its key). */
export interface CertificateFacts {
  readonly file: string;
  readonly subject: string;
  readonly issuer: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly fingerprint256: string;
}

/** Whole days from `now` until the certificate expires (0 on its last day). */
export function daysLeft(facts: CertificateFacts, now: Date): number {
  return Math.floor((facts.notAfter.getTime() - now.getTime()) / 86_400_000);
}

/** Within this many days of its end a client certificate is warned about (commands, `provider check`, the daemon's alert). */
export const EXPIRY_WARNING_DAYS = 30;
