import type { FastifyRequest } from 'fastify';
import type { Credentials, Tokens } from './auth.js';
import type { BillPayments } from './bill-payments.js';
import type { HeldAnswers } from './http-faults.js';
import type { PixProcessor } from './pix-processor.js';
import type { Runtime } from './runtime.js';

/** What the routes need beyond the runtime. */
export interface AppParts {
  readonly rt: Runtime;
  readonly credentials: Credentials & { readonly clientSecret: string; readonly adminToken: string };
  readonly tokens: Tokens;
  readonly processor: PixProcessor;
  readonly billPayments: BillPayments;
  readonly held: HeldAnswers;
  /** Runs the background jobs at once (after the admin route moved the clock). */
  readonly runDueNow: () => void;
  /** HTTPS (and mutual TLS with `clientCa`) instead of HTTP. */
  readonly tls?: { readonly cert: string; readonly key: string; readonly clientCa?: string };
}

/** The authenticated account of an API request. */
export type AccountOf = (request: FastifyRequest) => string;
