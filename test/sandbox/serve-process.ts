import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { BIN } from '../helpers/e2e.js';

/** Fails the test file early when the CLI has not been built (npm test builds first). */
export function requireBuild(): void {
  if (!existsSync(join(import.meta.dirname, '../../dist/cli/main.js'))) throw new Error('build first: npm run build');
}

/** Spawns `paybatch sandbox serve --json` with `args` and resolves with its ready document. */
export async function serveSandbox<Ready>(args: readonly string[]): Promise<{ child: ResultPromise; ready: Ready }> {
  const child = execa(process.execPath, [BIN, 'sandbox', 'serve', '--json', '--host', '127.0.0.1', '--port', '0', ...args], { reject: false });
  let text = '';
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      try {
        resolve(JSON.parse(text) as Ready);
      } catch {
        // not complete yet
      }
    });
    void child.then((r) => reject(new Error(`exited before ready: ${r.exitCode} ${String(r.stderr)}`)), reject);
  });
  return { child, ready };
}
