import type { FastifyInstance } from 'fastify';
import { checkPixKey, parsePixKeyType } from '../domain/pix-key.js';
import { sayValidation } from '../words/validation.js';
import { invalidInput, notFound } from './api-error.js';
import type { AppParts } from './app-parts.js';
import { destinationForKey } from './key-directory.js';
import { keyExists } from './key-lookup.js';

/**
 * Endpoint 2, `GET /pix/keys/{key}`: 400 for a key the domain rules refuse, 404 for a key the directory does not
 * have, otherwise the destination. The type is detected (an 11-digit text valid as both CPF and phone is a CPF);
 * `?type=phone` (any word parsePixKeyType reads) checks it as that type instead.
 */
export function registerKeyRoutes(app: FastifyInstance, { rt }: AppParts): void {
  app.get<{ Params: { key: string }; Querystring: { type?: string } }>('/pix/keys/:key', async (request) => {
    const typeWord = request.query.type;
    const type = typeWord === undefined ? undefined : parsePixKeyType(typeWord);
    if (type === null) throw invalidInput([{ field: 'type', problem: 'must be cpf, cnpj, phone, email or evp' }]);
    const check = checkPixKey(request.params.key, type);
    if (!check.valid || check.normalized === null || check.type === null) {
      throw invalidInput([{ field: 'key', problem: check.reason === null ? 'is not a Pix key' : sayValidation(check.reason, 'en') }]);
    }
    if (!keyExists(rt, check.normalized, check.type)) throw notFound('Pix key');
    return destinationForKey(check.normalized, check.type);
  });
}
