import type * as settings from '../src/config/settings.js';

/** docs/settings.md, whose settings table `node scripts/docs-settings.mjs` writes. */
export const SETTINGS_DOC: URL;
export const BEGIN: string;
export const END: string;
/** The table of every setting (name, default, variables, secret, describe) from src/config/settings.ts. */
export function settingsTable(module: typeof settings): string;
/** The document with the table between BEGIN and END made anew. */
export function withSettingsTable(doc: string, module: typeof settings): string;
