import type { Locale } from '../../words/locale.js';

/**
 * commander's own usage errors in the run's language. commander words them itself and hands over only the text, so
 * each of its forms is matched here (test/cli/usage-errors.test.ts holds the texts commander writes: an upgrade that
 * rewords one fails there, and the error is then shown as commander wrote it, never lost).
 */
const PORTUGUESE: readonly [RegExp, (...m: string[]) => string][] = [
  [/^missing required argument '(.+)'$/, (name) => `falta o argumento obrigatório '${name}'`],
  [/^unknown option '(.+)'$/, (flag) => `opção desconhecida '${flag}'`],
  [/^unknown command '(.+)'$/, (name) => `comando desconhecido '${name}'`],
  [/^option '(.+)' argument missing$/, (flags) => `falta o valor da opção '${flags}'`],
  [/^required option '(.+)' not specified$/, (flags) => `a opção obrigatória '${flags}' não foi dada`],
  [/^too many arguments(?: for '(.+)')?\. Expected (\d+) arguments? but got (\d+)\.$/, (name, expected, got) =>
    `argumentos demais${name ? ` para '${name}'` : ''}: ${expected === '1' ? 'espera-se 1' : `esperam-se ${expected}`}, ${got === '1' ? 'veio 1' : `vieram ${got}`}.`],
  [/^option '(.+)' argument '(.*)' is invalid\. Allowed choices are (.+)\.$/, (flags, value, choices) => `o valor '${value}' da opção '${flags}' não é aceito; valores aceitos: ${choices}.`],
  [/^option '(.+)' argument '(.*)' is invalid\. (.+)$/, (flags, value, why) => `o valor '${value}' da opção '${flags}' não é aceito: ${why}`],
  [/^command-argument value '(.*)' is invalid for argument '(.+)'\. Allowed choices are (.+)\.$/, (value, name, choices) => `o valor '${value}' do argumento '${name}' não é aceito; valores aceitos: ${choices}.`],
  [/^(.+) cannot be used with (.+)$/, (a, b) => `${a} não pode ser usada com ${b}`],
];

/** One of commander's error texts (`error: …`, perhaps with a `(Did you mean …?)` line) in `locale`. */
export function usageErrorIn(locale: Locale, text: string): string {
  if (locale === 'en') return text;
  const [first = '', ...rest] = text.replace(/\n$/, '').split('\n');
  const message = first.replace(/^error: /, '');
  const rule = PORTUGUESE.find(([pattern]) => pattern.test(message));
  const said = rule ? rule[1](...(rule[0].exec(message)!.slice(1) as string[])) : message;
  const more = rest.map((line) => line.replace(/^\(Did you mean (.+)\?\)$/, '(Você quis dizer $1?)'));
  return `${['erro: ' + said, ...more].join('\n')}\n`;
}
