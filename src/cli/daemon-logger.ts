import type { LogEntry } from '../daemon/run-daemon.js';
import type { Output } from './output.js';

/** Daemon log lines on stderr: JSON lines for journald and log shippers, or short human lines. */
export function daemonLogger(out: Output, format: 'json' | 'pretty', write: (line: string) => void): (e: LogEntry) => void {
  return (e) => {
    const time = new Date().toISOString();
    if (format === 'json') return write(JSON.stringify({ time, ...e }));
    const { level, msg, ...fields } = e;
    const extra = Object.entries(fields)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    const tag = level === 'error' ? out.errStyle.red('ERROR') : level === 'warn' ? out.errStyle.yellow('WARN ') : out.errStyle.dim('INFO ');
    write(`${out.errStyle.dim(time.slice(11, 19))} ${tag} ${msg}${extra ? ` ${out.errStyle.dim(extra)}` : ''}`);
  };
}
