import { writeFileSync } from 'node:fs';

/** Writes a valid sheet of `rows` e-mail-key payments (UTF-8, `;`, Brazilian decimals) and returns its path. */
export function writeSheet(path: string, rows: number, o: { seed?: string } = {}): string {
  const lines = ['chave;tipo_chave;valor;descricao'];
  for (let i = 1; i <= rows; i++) {
    const cents = 1000 + ((i * 7919) % 90_000);
    lines.push(`pessoa${i}.${o.seed ?? 'a'}@exemplo.com.br;email;${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')};Pagamento ${i}`);
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}
