import { describe, expect, it } from 'vitest';
import { yesOrNo } from '../../src/cli/messages/prompts.js';

describe('a yes/no answer in the run\'s language', () => {
  it.each([
    ['pt-BR', 's', false, true], ['pt-BR', 'Sim', false, true], ['pt-BR', ' SIM ', false, true], ['pt-BR', 'y', false, true], ['pt-BR', 'yes', false, true],
    ['pt-BR', 'n', true, false], ['pt-BR', 'não', true, false], ['pt-BR', 'NÃO', true, false], ['pt-BR', 'nao', true, false], ['pt-BR', 'no', true, false],
    ['pt-BR', '', false, false], ['pt-BR', '', true, true],
    ['pt-BR', 'talvez', false, null], ['pt-BR', 'ss', false, null], ['pt-BR', 'sí', false, null],
    ['en', 'y', false, true], ['en', 'YES', false, true], ['en', 'n', true, false], ['en', 'no', true, false], ['en', '', true, true],
    ['en', 's', false, null], ['en', 'sim', false, null], ['en', 'yep', false, null],
  ] as const)('%s "%s" (default yes: %s) → %s', (locale, answer, defaultYes, expected) => {
    expect(yesOrNo(answer, locale, defaultYes)).toBe(expected);
  });
});
