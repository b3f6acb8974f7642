import type { PixKeyType } from '../domain/pix-key.js';
import { missingByRule } from './key-directory.js';
import type { Runtime } from './runtime.js';

/** Whether a normalized key exists: what the admin route set for it, otherwise the directory's rule. */
export function keyExists(rt: Runtime, normalized: string, type: PixKeyType): boolean {
  return rt.pix.keyOverride(`${type}:${normalized}`) ?? !missingByRule(normalized, type);
}
