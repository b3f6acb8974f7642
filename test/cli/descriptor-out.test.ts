import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { descriptorOut } from '../../src/cli/io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

/** A stream standing in for process.stdout, keeping what it was given. */
function keptStream() {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (b: Buffer) => chunks.push(b));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

const failure = (code: string) => Object.assign(new Error(code), { code });

describe('stdout written to its descriptor (descriptorOut)', () => {
  it('writes text and bytes straight to the descriptor, in order, without making the stream', () => {
    const file = join(tempDir(), 'out.txt');
    const fd = openSync(file, 'w');
    let made = 0;
    const out = descriptorOut(fd, () => (made++, keptStream().stream), () => {});
    out.write('chave válida\n');
    out.write(Buffer.from('R$ 1.250,00\n', 'utf8'));
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe('chave válida\nR$ 1.250,00\n');
    expect(made).toBe(0);
  });

  it('goes on through the stream after 64 KiB, keeping the order', async () => {
    const file = join(tempDir(), 'out.txt');
    const fd = openSync(file, 'w');
    const kept = keptStream();
    const out = descriptorOut(fd, () => kept.stream, () => {});
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) out.write(line); // 64 KiB, all on the descriptor
    out.write('after\n');
    out.write('and after\n');
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe(line.repeat(64));
    await new Promise((r) => setImmediate(r));
    expect(kept.text()).toBe('after\nand after\n');
  });

  it('hands the rest of a write, and every later one, to the stream when the descriptor would block (EAGAIN)', async () => {
    const kept = keptStream();
    const direct: string[] = [];
    // The descriptor takes 4 bytes, then would block.
    const write = (_fd: number, bytes: Uint8Array, offset: number, length: number) => {
      if (direct.join('').length >= 4) throw failure('EAGAIN');
      const n = Math.min(length, 4);
      direct.push(Buffer.from(bytes.subarray(offset, offset + n)).toString('utf8'));
      return n;
    };
    const out = descriptorOut(1, () => kept.stream, () => {}, write);
    out.write('abcdefgh\n');
    out.write('next\n');
    await new Promise((r) => setImmediate(r));
    expect(direct.join('')).toBe('abcd');
    expect(kept.text()).toBe('efgh\nnext\n');
  });

  it('calls closed when the reader is gone (EPIPE), and throws any other failure', () => {
    let closed = 0;
    const gone = descriptorOut(1, () => keptStream().stream, () => closed++, () => {
      throw failure('EPIPE');
    });
    gone.write('x\n');
    expect(closed).toBe(1);
    const broken = descriptorOut(1, () => keptStream().stream, () => closed++, () => {
      throw failure('EIO');
    });
    expect(() => broken.write('x\n')).toThrow('EIO');
    expect(closed).toBe(1);
  });
});
