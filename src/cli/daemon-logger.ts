import type { LogEntry } from '../daemon/run-daemon.js';
import { localDateTime, zoneLabel } from '../words/local-time.js';
import { daemonMessages, logLineText } from './messages/daemon.js';
import type { Output } from './output.js';

/**
 * Daemon log lines on stderr: JSON lines for journald and log shippers (ISO UTC instants), or short human lines in
 * São Paulo time, labelled once, in the run's language (each event's words, see logLineText).
 */
export function daemonLogger(out: Output, format: 'json' | 'pretty', write: (line: string) => void): (e: LogEntry) => void {
  const words = daemonMessages[out.locale];
  let labelled = false;
  return (e) => {
    const now = new Date();
    // The commands a line suggests act on this daemon's profile (see Output.forProfile).
    if (format === 'json') return write(JSON.stringify({ time: now.toISOString(), ...e, msg: out.forProfile(e.msg) }));
    if (!labelled) {
      labelled = true;
      write(out.errStyle.dim(words.timesAre(zoneLabel(out.locale))));
    }
    const { level, msg: _msg, event: _event, ...fields } = e;
    const text = out.forProfile(logLineText(e, out.locale));
    // A failure's error the sentence already says is not repeated after it.
    const extra = Object.entries(fields)
      .filter(([k, v]) => !(k === 'error' && typeof v === 'string' && text.includes(v)))
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    const tag = level === 'error' ? out.errStyle.red(words.level.error) : level === 'warn' ? out.errStyle.yellow(words.level.warn) : out.errStyle.dim(words.level.info);
    write(`${out.errStyle.dim(clock(now, out.locale))} ${tag} ${text}${extra ? ` ${out.errStyle.dim(extra)}` : ''}`);
  };
}

/** HH:MM:SS in São Paulo: the minutes from localDateTime, the seconds from the instant (the offset is whole hours). */
function clock(instant: Date, locale: Parameters<typeof localDateTime>[1]): string {
  return `${localDateTime(instant, locale).split(' ')[1]}:${instant.toISOString().slice(17, 19)}`;
}
