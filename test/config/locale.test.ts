import { describe, expect, it } from 'vitest';
import { resolveLocale } from '../../src/words/locale.js';

describe('resolveLocale', () => {
  it('takes the setting over the environment', () => {
    expect(resolveLocale('en', { LANG: 'pt_BR.UTF-8' })).toBe('en');
    expect(resolveLocale('pt-BR', { LC_ALL: 'en_US.UTF-8' })).toBe('pt-BR');
  });
  it('reads LC_ALL, then LC_MESSAGES, then LANG', () => {
    expect(resolveLocale(undefined, { LC_ALL: 'en_US.UTF-8', LANG: 'pt_BR.UTF-8' })).toBe('en');
    expect(resolveLocale(undefined, { LC_MESSAGES: 'pt_BR', LANG: 'en_GB.UTF-8' })).toBe('pt-BR');
    expect(resolveLocale(undefined, { LANG: 'pt_PT.UTF-8' })).toBe('pt-BR');
    expect(resolveLocale(undefined, { LANG: 'de_DE.UTF-8' })).toBe('en');
    expect(resolveLocale(undefined, { LC_ALL: '', LANG: 'en_US' })).toBe('en');
  });
  it('is pt-BR when the environment names no language (cron, systemd, C.UTF-8)', () => {
    expect(resolveLocale(undefined, {})).toBe('pt-BR');
    expect(resolveLocale(undefined, { LANG: 'C.UTF-8' })).toBe('pt-BR');
    expect(resolveLocale(undefined, { LC_ALL: 'POSIX' })).toBe('pt-BR');
  });
});
