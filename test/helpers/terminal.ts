import { execa } from 'execa';
import { BIN } from './e2e.js';

// A tiny driver over python3's pty module: runs a command in a real pseudo-terminal, and for each step waits for
// the text to appear on the screen and for the program to read the terminal key by key (raw mode, which a prompt
// sets: typed before that, the terminal would cook the answer as a line, and Ctrl-C would be a signal rather than a
// keystroke), then types the answer and Enter (a lone Ctrl-C is sent as it is). Both are states it observes, never a
// pause; the 40 s deadline only bounds a run that went wrong.
const DRIVER = `
import fcntl, json, os, pty, select, signal, struct, sys, termios, time
argv, steps = json.loads(sys.argv[1]), json.loads(sys.argv[2])
pid, fd = pty.fork()
if pid == 0:
    os.execv(argv[0], argv)
# A wide screen, so prompts are not wrapped across lines.
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 50, 200, 0, 0))

def reads_keys():
    # The master side reports the terminal's line discipline: canonical (cooked) mode off means raw.
    try:
        return not termios.tcgetattr(fd)[3] & termios.ICANON
    except termios.error:
        return False

out, done, deadline = b'', 0, time.time() + 40
while time.time() < deadline:
    # Short polls while an answer waits for raw mode (no output need come meanwhile).
    ready, _, _ = select.select([fd], [], [], 0.02 if done < len(steps) and steps[done][0].encode() in out[-8192:] else 0.1)
    if ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    if done < len(steps) and steps[done][0].encode() in out[-8192:] and reads_keys():
        answer = steps[done][1]
        # Ctrl-C is a keystroke of its own; everything else is typed and confirmed with Enter.
        os.write(fd, answer.encode() + (b'' if answer == '\\u0003' else b'\\r'))
        out += b'\\n<<answered>>\\n'
        done += 1
if time.time() >= deadline:
    os.kill(pid, signal.SIGKILL)
_, status = os.waitpid(pid, 0)
print(json.dumps({'output': out.decode('utf-8', 'replace'), 'code': os.waitstatus_to_exitcode(status), 'answered': done}))
`;

/**
 * Runs the built paybatch in a pseudo-terminal: each step waits for its prompt text, then types its answer and Enter.
 * Returns everything the terminal showed, the exit code and how many steps were answered.
 */
export async function inTerminal(args: string[], env: Record<string, string>, steps: readonly (readonly [prompt: string, answer: string])[]) {
  const r = await execa('python3', ['-c', DRIVER, JSON.stringify([process.execPath, BIN, ...args]), JSON.stringify(steps)], {
    env: { ...env, TERM: 'xterm' },
    extendEnv: false,
    timeout: 60_000,
  });
  return JSON.parse(r.stdout) as { output: string; code: number; answered: number };
}
