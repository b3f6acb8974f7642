import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import { HTTP_FAULTS, pickFault, type HttpFault } from './faults.js';
import type { Runtime } from './runtime.js';

/** Real time a `timeout` fault holds an answer before dropping the connection. */
const TIMEOUT_HOLD_MS = 10_000;

/** Answers held by `timeout` faults; released at once when the sandbox closes. */
export class HeldAnswers {
  private readonly releases = new Set<() => void>();

  hold(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const release = (): void => {
        clearTimeout(timer);
        this.releases.delete(release);
        resolve();
      };
      const timer = setTimeout(release, ms);
      this.releases.add(release);
    });
  }

  releaseAll(): void {
    for (const release of [...this.releases]) release();
  }
}

/**
 * Injects HTTP faults into the routes of `app` (the API scope; never the token endpoint or /_sandbox/). One draw
 * per request, numbered in arrival order from the seed, picks at most one fault: `reset` drops the connection before
 * anything is read; `http5xx` answers 500, 502 or 503 and `r429` answers 429 with the dialect's Retry-After (seconds
 * or an HTTP date, drawn from the seed), both before the request is applied; `lostResponse` applies it and drops the
 * connection instead of answering; `timeout` applies it and holds the answer for TIMEOUT_HOLD_MS, then drops the
 * connection.
 */
export function installHttpFaults(app: FastifyInstance, rt: Runtime, held: HeldAnswers): void {
  const afterApply = new WeakMap<FastifyRequest, HttpFault>();
  let requests = 0;

  app.addHook('onRequest', async (request, reply) => {
    const number = ++requests;
    const fault = pickFault(HTTP_FAULTS, rt.faults, rt.random.unit('http', number));
    if (fault === null) return;
    rt.log(`fault ${fault}: ${request.method} ${request.url.split('?')[0]} (request ${number})`);
    switch (fault) {
      case 'reset':
        reply.hijack();
        request.raw.socket.destroy();
        return;
      case 'http5xx': {
        const status = rt.random.pick([500, 502, 503], 'http5xxStatus', number);
        throw new ApiError(status, 'injected_fault', `injected ${status} (sandbox fault http5xx); nothing was applied`);
      }
      case 'r429': {
        const retryAfter = rt.dialect.retryAfter((what) => rt.random.unit(what, number), Date.now());
        throw new ApiError(429, 'rate_limited', `too many requests (sandbox fault r429); retry after ${waitText(retryAfter)}`, [], { 'retry-after': retryAfter });
      }
      default:
        afterApply.set(request, fault);
    }
  });

  app.addHook('onSend', async (request, _reply, payload) => {
    const fault = afterApply.get(request);
    if (fault === 'timeout') await held.hold(TIMEOUT_HOLD_MS);
    if (fault !== undefined) request.raw.socket.destroy();
    return payload;
  });
}

/** A Retry-After value as words: "1 second", "3 seconds", or the HTTP date itself. */
function waitText(retryAfter: string): string {
  if (!/^\d+$/.test(retryAfter)) return retryAfter;
  return `${retryAfter} second${retryAfter === '1' ? '' : 's'}`;
}
