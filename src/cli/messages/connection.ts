import type { Locale } from '../../words/locale.js';
import type { TlsProblem } from '../../network/client-identity.js';
import type { ProxyProblem } from '../../network/proxy-rules.js';
import { localDateTime, zoneLabel } from '../../words/local-time.js';
import { counted } from '../../words/plural.js';

/** What paybatch says of the profile's TLS files and proxy before it calls the provider. */
export interface ConnectionMessages {
  tls(p: TlsProblem): { message: string; hint?: string };
  proxy(p: ProxyProblem): { message: string; hint?: string };
  passphraseOf(file: string): string;
  noPassphrase(file: string): string;
  expiring(o: { file: string; subject: string; notAfter: Date; days: number }): string;
  /** `provider check` and `config show`: the certificate in use (dates as ISO days) and the proxy. */
  certificateLine(c: { file: string; subject: string; issuer: string; notBefore: string; notAfter: string; daysLeft: number }): string;
  proxyLine(p: { url: string; source: string }): string;
}

const day = (iso: string) => iso.slice(0, 10);

const SETTING_ENV: Readonly<Record<string, string>> = {
  clientCert: 'PAYBATCH_CLIENT_CERT',
  clientKey: 'PAYBATCH_CLIENT_KEY',
  clientPfx: 'PAYBATCH_CLIENT_PFX',
  caFile: 'PAYBATCH_CA_FILE',
  setting: 'proxy',
};
const named = (setting: string) => `${setting} (${SETTING_ENV[setting] ?? setting})`;
/** The exact commands that turn a legacy PKCS#12 file into one OpenSSL 3 reads (each asks its passphrase). */
const convert = (file: string) => `openssl pkcs12 -legacy -in "${file}" -nodes | openssl pkcs12 -export -out "${file.replace(/\.(p12|pfx)$/i, '')}-novo.p12"`;

const EN_WHEN = (d: Date) => `${localDateTime(d, 'en')} ${zoneLabel('en')}`;
const PT_WHEN = (d: Date) => `${localDateTime(d, 'pt-BR')} (${zoneLabel('pt-BR')})`;

export const connectionMessages: Readonly<Record<Locale, ConnectionMessages>> = {
  en: {
    tls: (p) => {
      switch (p.code) {
        case 'pfx_and_pem':
          return { message: 'Both clientPfx and clientCert/clientKey are set; a profile has one client certificate.', hint: 'Unset one of them (paybatch config unset NAME, or the variable).' };
        case 'pem_half':
          return { message: `${p.missing === 'clientKey' ? 'clientCert' : 'clientKey'} is set without ${named(p.missing)}.`, hint: 'A PEM certificate needs its key: set both, or clientPfx instead.' };
        case 'file_unreadable':
          return { message: `${p.file} (${named(p.setting)}) cannot be read: ${p.reason}.` };
        case 'file_shared':
          return { message: `${p.file} (${named(p.setting)}) holds a private key and other users can read it (mode ${p.mode}).`, hint: `Run: chmod 600 ${p.file}` };
        case 'no_certificate':
          return { message: `${p.file} (${named(p.setting)}) holds no certificate (PEM "BEGIN CERTIFICATE").` };
        case 'no_key':
          return { message: `${p.file} (${named('clientKey')}) holds no private key paybatch can read (PEM, "BEGIN … PRIVATE KEY").` };
        case 'passphrase_wrong':
          return { message: `The passphrase does not open ${p.file} (${named(p.setting)}).`, hint: 'Check PAYBATCH_CLIENT_PASSPHRASE or the file PAYBATCH_CLIENT_PASSPHRASE_FILE names.' };
        case 'pfx_unreadable':
          return { message: `${p.file} (${named('clientPfx')}) cannot be read as PKCS#12: ${p.reason}.`, hint: `Convert it to a current PKCS#12 file with: ${convert(p.file)}` };
        case 'key_mismatch':
          return { message: `The key ${p.keyFile} is not the key of the certificate ${p.certFile}.`, hint: 'Set the key issued with this certificate.' };
        case 'expired':
          return { message: `The client certificate ${p.file} expired on ${EN_WHEN(p.notAfter)} (valid from ${EN_WHEN(p.notBefore)}); nothing was sent.`, hint: 'Ask the provider (or your certificate authority) for a new one and set it.' };
        case 'not_yet_valid':
          return { message: `The client certificate ${p.file} is valid only from ${EN_WHEN(p.notBefore)} (until ${EN_WHEN(p.notAfter)}); nothing was sent.`, hint: "Check this host's clock, or wait for that date." };
      }
    },
    proxy: (p) =>
      p.code === 'proxy_url_invalid'
        ? { message: `The proxy in ${p.source === 'setting' ? 'the proxy setting' : p.source} is not a URL.`, hint: 'Write it as http://host:port or http://user:password@host:port.' }
        : { message: `The proxy in ${p.source === 'setting' ? 'the proxy setting' : p.source} is a ${p.scheme} proxy; paybatch speaks to HTTP proxies (CONNECT), as http:// or https://.` },
    passphraseOf: (file) => `Passphrase of ${file}`,
    noPassphrase: (file) => `${file} is encrypted and there is no terminal to ask its passphrase on; set PAYBATCH_CLIENT_PASSPHRASE, or PAYBATCH_CLIENT_PASSPHRASE_FILE naming a file that holds it.`,
    expiring: (o) => `The client certificate ${o.file} (${o.subject}) expires on ${EN_WHEN(o.notAfter)}, in ${counted('en', o.days, { one: 'day', other: 'days' })}: ask the provider for a new one before then.`,
    certificateLine: (c) =>
      `client certificate: ${c.subject}, issued by ${c.issuer}, valid ${day(c.notBefore)} to ${day(c.notAfter)} (${counted('en', c.daysLeft, { one: 'day', other: 'days' })} left; ${c.file})`,
    proxyLine: (p) => `proxy: ${p.url} (from ${p.source})`,
  },
  'pt-BR': {
    tls: (p) => {
      switch (p.code) {
        case 'pfx_and_pem':
          return { message: 'clientPfx e clientCert/clientKey estão definidos; um perfil tem um só certificado de cliente.', hint: 'Remova um deles (paybatch config unset NOME, ou a variável).' };
        case 'pem_half':
          return { message: `${p.missing === 'clientKey' ? 'clientCert' : 'clientKey'} está definido sem ${named(p.missing)}.`, hint: 'Um certificado PEM precisa da sua chave: defina os dois, ou clientPfx no lugar.' };
        case 'file_unreadable':
          return { message: `${p.file} (${named(p.setting)}) não pode ser lido: ${p.reason}.` };
        case 'file_shared':
          return { message: `${p.file} (${named(p.setting)}) guarda uma chave privada e outros usuários podem lê-lo (modo ${p.mode}).`, hint: `Execute: chmod 600 ${p.file}` };
        case 'no_certificate':
          return { message: `${p.file} (${named(p.setting)}) não contém certificado (PEM "BEGIN CERTIFICATE").` };
        case 'no_key':
          return { message: `${p.file} (${named('clientKey')}) não contém chave privada que o paybatch leia (PEM, "BEGIN … PRIVATE KEY").` };
        case 'passphrase_wrong':
          return { message: `A frase-senha não abre ${p.file} (${named(p.setting)}).`, hint: 'Confira PAYBATCH_CLIENT_PASSPHRASE ou o arquivo indicado em PAYBATCH_CLIENT_PASSPHRASE_FILE.' };
        case 'pfx_unreadable':
          return { message: `${p.file} (${named('clientPfx')}) não pode ser lido como PKCS#12: ${p.reason}.`, hint: `Converta-o para um PKCS#12 atual com: ${convert(p.file)}` };
        case 'key_mismatch':
          return { message: `A chave ${p.keyFile} não é a chave do certificado ${p.certFile}.`, hint: 'Defina a chave emitida com este certificado.' };
        case 'expired':
          return { message: `O certificado de cliente ${p.file} venceu em ${PT_WHEN(p.notAfter)} (válido desde ${PT_WHEN(p.notBefore)}); nada foi enviado.`, hint: 'Peça um novo ao provedor (ou à sua autoridade certificadora) e defina-o.' };
        case 'not_yet_valid':
          return { message: `O certificado de cliente ${p.file} só vale a partir de ${PT_WHEN(p.notBefore)} (até ${PT_WHEN(p.notAfter)}); nada foi enviado.`, hint: 'Confira o relógio deste computador, ou aguarde essa data.' };
      }
    },
    proxy: (p) =>
      p.code === 'proxy_url_invalid'
        ? { message: `O proxy em ${p.source === 'setting' ? 'a configuração proxy' : p.source} não é uma URL.`, hint: 'Escreva-o como http://host:porta ou http://usuario:senha@host:porta.' }
        : { message: `O proxy em ${p.source === 'setting' ? 'a configuração proxy' : p.source} é do tipo ${p.scheme}; o paybatch fala com proxies HTTP (CONNECT), http:// ou https://.` },
    passphraseOf: (file) => `Frase-senha de ${file}`,
    noPassphrase: (file) => `${file} é cifrado e não há terminal para pedir a frase-senha; defina PAYBATCH_CLIENT_PASSPHRASE, ou PAYBATCH_CLIENT_PASSPHRASE_FILE com o caminho de um arquivo que a contenha.`,
    expiring: (o) => `O certificado de cliente ${o.file} (${o.subject}) vence em ${PT_WHEN(o.notAfter)}, daqui a ${counted('pt-BR', o.days, { one: 'dia', other: 'dias' })}: peça um novo ao provedor antes disso.`,
    certificateLine: (c) =>
      `certificado de cliente: ${c.subject}, emitido por ${c.issuer}, válido de ${day(c.notBefore)} a ${day(c.notAfter)} (${counted('pt-BR', c.daysLeft, { one: 'dia restante', other: 'dias restantes' })}; ${c.file})`,
    proxyLine: (p) => `proxy: ${p.url} (de ${p.source})`,
  },
};
