/** Made-up people, companies and institutions the sandbox answers with. */

export const FIRST_NAMES = [
  'Ana', 'Bruno', 'Carla', 'Daniel', 'Eduarda', 'Felipe', 'Gabriela', 'Henrique', 'Isabela', 'João',
  'Karina', 'Lucas', 'Mariana', 'Nicolas', 'Olívia', 'Paulo', 'Rafaela', 'Samuel', 'Tatiane', 'Vinícius',
] as const;

export const SURNAMES = [
  'Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes',
  'Costa', 'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa',
] as const;

export const COMPANY_WORDS = [
  'Comércio', 'Serviços', 'Logística', 'Tecnologia', 'Alimentos', 'Construções', 'Transportes', 'Consultoria',
  'Distribuidora', 'Indústria',
] as const;

/** Institutions of Pix destinations: ISPB (8 digits) and name. */
export const INSTITUTIONS = [
  { ispb: '00000000', name: 'Banco do Brasil S.A.' },
  { ispb: '00360305', name: 'Caixa Econômica Federal' },
  { ispb: '60701190', name: 'Itaú Unibanco S.A.' },
  { ispb: '60746948', name: 'Banco Bradesco S.A.' },
  { ispb: '90400888', name: 'Banco Santander (Brasil) S.A.' },
  { ispb: '18236120', name: 'Nu Pagamentos S.A.' },
  { ispb: '00416968', name: 'Banco Inter S.A.' },
  { ispb: '31872495', name: 'Banco C6 S.A.' },
  { ispb: '10573521', name: 'Mercado Pago Instituição de Pagamento Ltda.' },
  { ispb: '08561701', name: 'PagSeguro Internet Instituição de Pagamento S.A.' },
] as const;

/** Issuing banks of bank slips by their 3-digit code; others are shown as "Banco <code>". */
export const BANKS: Readonly<Record<string, string>> = {
  '001': 'Banco do Brasil S.A.',
  '033': 'Banco Santander (Brasil) S.A.',
  '077': 'Banco Inter S.A.',
  '104': 'Caixa Econômica Federal',
  '237': 'Banco Bradesco S.A.',
  '260': 'Nu Pagamentos S.A.',
  '341': 'Itaú Unibanco S.A.',
  '336': 'Banco C6 S.A.',
  '748': 'Banco Cooperativo Sicredi S.A.',
  '756': 'Banco Cooperativo do Brasil S.A. (Sicoob)',
};

/** The sandbox's own institution, the payer's side of every payment. Not a real ISPB. */
export const SANDBOX_INSTITUTION = { ispb: '99999999', name: 'paybatch sandbox (no real money)' } as const;
