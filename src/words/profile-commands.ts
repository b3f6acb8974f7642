/**
 * Commands paybatch suggests (hints, next steps, alerts) name no profile: pasted as shown, they act on "default". For
 * another profile, the edge adds `--profile <name>` to each before a person reads it.
 */

/** The commands of paybatch (main.ts registers each; test/words/profile-commands.test.ts keeps the two in step). */
export const PAYBATCH_COMMANDS = [
  'import',
  'template',
  'batch',
  'keys',
  'daemon',
  'alerts',
  'events',
  'receipts',
  'report',
  'webhook',
  'provider',
  'boleto',
  'config',
  'ledger',
  'sandbox',
  'demo',
  'approver',
  'approvals',
  'ui',
  'reconcile',
] as const;

/**
 * "paybatch <command>" that is a command to run, not the program named in a sentence ("another paybatch daemon",
 * "a usable paybatch ledger", "as paybatch ui does"), and does not name a profile already.
 */
const SUGGESTED = new RegExp(
  `(?<!\\b(?:a|an|the|another|usable|sound|as|for|one|o|um|outro|do|no|pelo)\\s)\\bpaybatch (?=(?:${PAYBATCH_COMMANDS.join('|')})\\b)(?![^\\n'\`]*--profile\\b)`,
  'gi',
);

/** `text` with `--profile <profile>` after each "paybatch" of a suggested command; as is for the default profile. */
export function withProfile(text: string, profile: string | undefined): string {
  if (profile === undefined || profile === 'default') return text;
  const name = /^[A-Za-z0-9._-]+$/.test(profile) ? profile : `'${profile.replaceAll("'", "'\\''")}'`;
  return text.replace(SUGGESTED, `paybatch --profile ${name} `);
}
