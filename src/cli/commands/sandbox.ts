import type { RegisterCommands } from '../command.js';

// Placeholder until the sandbox lands (issue 3); replaced by the real `sandbox serve`.
export const registerSandbox: RegisterCommands = (program) => {
  program.command('sandbox').description('a local provider for rehearsals and tests');
};
