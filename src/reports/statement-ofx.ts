import type { Locale } from '../words/locale.js';
import { formatReais } from '../domain/money.js';
import { PaybatchError } from '../errors.js';
import type { Movement, PeriodStatement } from './period-statement.js';
import { STATEMENT_LABELS } from './statement-labels.js';

/**
 * Text for an OFX element: ASCII only (accents taken off, anything else `?`), so the file reads the same whether an
 * importer decodes it as ASCII, Windows-1252 or UTF-8; cut to the element's maximum length (OFX 1.0.2: NAME 32, MEMO
 * 255), then `&`, `<` and `>` escaped as SGML requires.
 */
function ofxText(text: string, max: number): string {
  const ascii = text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '?');
  return ascii.slice(0, max).trim().replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const BRT = '[-3:BRT]';
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An instant as OFX writes it, São Paulo's wall clock with its offset: `20261105103000[-3:BRT]`. The wall clock is
 * taken at UTC−3 itself (not from the zone's rules), so the text always names the exact instant, with or without
 * daylight saving.
 */
function ofxTime(iso: string): string {
  const d = new Date(Date.parse(iso) - 3 * 3_600_000);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}${BRT}`;
}

const ofxDay = (ymd: string, time: string) => `${ymd.replaceAll('-', '')}${time}${BRT}`;

function transaction(m: Movement): string[] {
  return [
    '<STMTTRN>',
    `<TRNTYPE>${m.direction === 'debit' ? 'DEBIT' : 'CREDIT'}`,
    `<DTPOSTED>${ofxTime(m.at)}`,
    `<TRNAMT>${formatReais(m.direction === 'debit' ? -m.cents : m.cents)}`,
    `<FITID>${ofxText(m.id, 255)}`,
    ...(m.name === null ? [] : [`<NAME>${ofxText(m.name, 32)}`]),
    `<MEMO>${ofxText(m.memo, 255)}`,
    '</STMTTRN>',
  ];
}

/**
 * A period statement's movements as an OFX bank statement, version 1.0.2: SGML with the `OFXHEADER:100` header, the
 * form the Brazilian banks' internet banking exports and so the one the accounting systems used in Brazil import
 * (OFX 2.x XML is read by fewer of them). Header `ENCODING:USASCII`, `CHARSET:1252`, as those banks write it; the
 * text itself is plain ASCII (see `ofxText`), CRLF line ends.
 *
 * - The account (`BANKACCTFROM`: BANKID, BRANCHID, ACCTID, CHECKING) is the company's, from the profile; a statement
 *   without one is refused with a PaybatchError whose reason is `statement_account_unset`: an OFX file that names no
 *   account would be booked to whichever one the importer guesses.
 * - One `STMTTRN` per movement: FITID is the movement's id (stable across statements, so an importer skips what it
 *   already booked), TRNAMT negative for a debit, DTPOSTED in São Paulo time with its offset (`[-3:BRT]`).
 * - DTSTART and DTEND are the period's first and last São Paulo days, whole; CURDEF is BRL.
 * - `LEDGERBAL` is the balance the provider's last event of the period carried. When no event carried one, it is
 *   omitted rather than invented, and the statement's `MKTGINFO` (its one free-text element) says so in the locale.
 */
export function statementOfx(statement: PeriodStatement, locale: Locale): Buffer {
  const { account } = statement;
  if (account === null) {
    throw new PaybatchError(
      `Profile "${statement.profile}" has no company bank account (companyBank, companyBranch, companyAccount): an OFX statement names the account it is of.`,
      {
        hint: `Set all three: paybatch --profile ${statement.profile} config set companyBank CODE (then companyBranch and companyAccount); CSV, XLSX and PDF statements do not need them.`,
        reason: { code: 'statement_account_unset', profile: statement.profile },
      },
    );
  }
  const status = ['<STATUS>', '<CODE>0', '<SEVERITY>INFO', '</STATUS>'];
  const lines = [
    'OFXHEADER:100', 'DATA:OFXSGML', 'VERSION:102', 'SECURITY:NONE', 'ENCODING:USASCII', 'CHARSET:1252', 'COMPRESSION:NONE', 'OLDFILEUID:NONE', 'NEWFILEUID:NONE',
    '',
    '<OFX>',
    '<SIGNONMSGSRSV1>', '<SONRS>', ...status, `<DTSERVER>${ofxTime(statement.generatedAt)}`, `<LANGUAGE>${locale === 'pt-BR' ? 'POR' : 'ENG'}`, '</SONRS>', '</SIGNONMSGSRSV1>',
    '<BANKMSGSRSV1>', '<STMTTRNRS>', '<TRNUID>1', ...status,
    '<STMTRS>',
    '<CURDEF>BRL',
    '<BANKACCTFROM>', `<BANKID>${ofxText(account.bank, 9)}`, `<BRANCHID>${ofxText(account.branch, 22)}`, `<ACCTID>${ofxText(account.account, 22)}`, '<ACCTTYPE>CHECKING', '</BANKACCTFROM>',
    '<BANKTRANLIST>',
    `<DTSTART>${ofxDay(statement.period.from, '000000')}`,
    `<DTEND>${ofxDay(statement.period.to, '235959')}`,
    ...statement.movements.flatMap(transaction),
    '</BANKTRANLIST>',
    ...(statement.balance === null
      ? [`<MKTGINFO>${ofxText(STATEMENT_LABELS[locale].noBalance, 360)}`]
      : ['<LEDGERBAL>', `<BALAMT>${formatReais(statement.balance.cents)}`, `<DTASOF>${ofxTime(statement.balance.at)}`, '</LEDGERBAL>']),
    '</STMTRS>', '</STMTTRNRS>', '</BANKMSGSRSV1>',
    '</OFX>',
  ];
  return Buffer.from(lines.join('\r\n') + '\r\n', 'ascii');
}
