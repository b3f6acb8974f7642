import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch keys`. */
export interface KeysHelp {
  readonly group: string;
  readonly check: { readonly description: string; readonly keys: string; readonly type: string; readonly examples: string };
  readonly lookup: { readonly description: string; readonly key: string; readonly type: string; readonly examples: string };
}

export const keysHelp: Readonly<Record<Locale, KeysHelp>> = {
  en: {
    group: 'check and look up Pix keys',
    check: {
      description: 'validate and normalise Pix keys offline (CPF, CNPJ, phone, e-mail, random key)',
      keys: 'keys to check',
      type: 'check every key as this type instead of detecting it',
      examples: '\nExamples:\n  paybatch keys check 123.456.789-09 +5511987654321 ana@example.com\n  paybatch keys check --type phone 11987654321 --json',
    },
    lookup: {
      description: 'ask the provider who a Pix key belongs to (checked offline first)',
      key: 'the Pix key',
      type: 'the key type, when it could be either CPF or phone',
      examples: '\nExamples:\n  paybatch keys lookup 529.982.247-25\n  paybatch keys lookup 11987654374 --type phone --json',
    },
  },
  'pt-BR': {
    group: 'confere e consulta chaves Pix',
    check: {
      description: 'valida e normaliza chaves Pix sem rede (CPF, CNPJ, telefone, e-mail, chave aleatória)',
      keys: 'as chaves a conferir',
      type: 'confere todas as chaves como deste tipo em vez de reconhecê-lo',
      examples: '\nExemplos:\n  paybatch keys check 123.456.789-09 +5511987654321 ana@example.com\n  paybatch keys check --type phone 11987654321 --json',
    },
    lookup: {
      description: 'pergunta ao provedor a quem pertence uma chave Pix (conferida sem rede antes)',
      key: 'a chave Pix',
      type: 'o tipo da chave, quando ela pode ser tanto CPF quanto telefone',
      examples: '\nExemplos:\n  paybatch keys lookup 529.982.247-25\n  paybatch keys lookup 11987654374 --type phone --json',
    },
  },
};
