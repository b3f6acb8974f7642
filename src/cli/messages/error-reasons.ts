import type { ErrorReason, LedgerDamage, ProviderUrlProblem, SettingRule } from '../../errors.js';
import type { Locale } from '../../words/locale.js';
import { localDateTime, localDay } from '../../words/local-time.js';
import { statusWord } from '../../words/status-words.js';

/** An error as a person reads it: what happened, and what to do next. */
export interface SaidError {
  readonly message: string;
  readonly hint?: string;
}

type ReasonWords = { readonly [C in ErrorReason['code']]: (r: Extract<ErrorReason, { code: C }>) => SaidError };

/**
 * The errors that carry a reason (src/errors.ts), in each language but English: English is the error's own message
 * and hint, the text `--json` gives, so it is written once, where the error is raised.
 */
const PORTUGUESE: ReasonWords = {
  profile_missing: (r) => ({
    message: `Não existe o perfil "${r.profile}" em ${r.path}.`,
    hint: r.known ? `Perfis existentes: ${r.known}.` : "Crie-o com 'paybatch config init --profile NOME'.",
  }),
  setting_unknown: (r) => ({ message: `A configuração "${r.setting}" não existe.`, hint: `Configurações: ${r.settings}.` }),
  setting_invalid: (r) => ({ message: `Valor não aceito para ${r.setting}: ${RULES[r.rule](r.values)}.` }),
  env_setting_invalid: (r) => ({ message: `Valor não aceito em ${r.variable}: ${RULES[r.rule](r.values)}.` }),
  secret_file_unreadable: (r) => ({ message: `${r.variable} aponta um arquivo que não pode ser lido: ${systemError(r.error)}.` }),
  config_shared: (r) => ({
    message: `${r.path} pode ser lido por outros usuários (modo ${r.mode}) e pode guardar segredos.`,
    hint: `Execute: chmod 600 ${r.path}`,
  }),
  config_not_json: (r) => ({ message: `${r.path} não é um JSON válido (${r.error}).` }),
  secret_on_command_line: (r) => ({
    message: `${r.setting} é um segredo: nunca é aceito na linha de comando (ficaria no histórico do shell e na lista de processos).`,
    hint: `Passe-o por um pipe (printf %s "$SEGREDO" | paybatch config set ${r.setting}) ou execute o comando num terminal para que ele seja pedido.`,
  }),
  provider_settings_missing: (r) => ({
    message: `O perfil "${r.profile}" tem uma URL base, mas falta: ${r.settings}.`,
    hint: `Defina com 'paybatch config set' ou pelo ambiente (${r.variables}).`,
  }),
  webhook_verification_invalid: (r) => ({
    message: `webhookVerification: "${r.value}" não é aceito; ${RULES.webhook_method('')}.`,
    hint: "Defina com 'paybatch config set webhookVerification auto'.",
  }),
  file_unreadable: (r) => ({ message: `Não foi possível ler ${r.file}: ${systemError(r.error)}.` }),
  sheet_changed: (r) => ({ message: `${r.file} mudou enquanto era importado; nada foi importado. Rode a importação de novo.` }),
  pay_on_invalid: (r) => ({ message: `--pay-on deve ser uma data no formato AAAA-MM-DD, como 2026-12-05; "${r.value}" não é.` }),
  pay_on_past: (r) => ({
    message: `--pay-on ${localDay(r.payOn, 'pt-BR')} já passou (hoje é ${localDay(r.today, 'pt-BR')} em São Paulo); nada foi importado.`,
  }),
  pay_on_with: (r) => ({ message: `--pay-on agenda o início para aquele dia; não combina com --${r.flag}.` }),
  export_format_invalid: (r) => ({ message: `--format deve ser csv ou cnab240-retorno, não "${r.value}".` }),
  export_status_with_return: () => ({ message: '--status escolhe linhas da planilha a corrigir; um arquivo retorno tem todos os títulos do lote.' }),
  batch_not_remittance: (r) => ({ message: `O lote #${r.batchId} não veio de uma remessa CNAB 240: não tem arquivo retorno.` }),
  remittance_bills_unpaid: (r) => ({
    message: `Nenhum boleto de ${r.file} foi pago com 'paybatch boleto pay --file': não há arquivo retorno de boletos dessa remessa.`,
    hint: `Pague-os com: paybatch boleto pay --file ${r.file}`,
  }),
  remittance_option: (r) => ({ message: `--${r.option} não combina com uma remessa CNAB 240: ela é importada inteira, cada título na sua data de pagamento.` }),
  import_format_invalid: (r) => ({ message: `--format deve ser cnab240 (CSV e XLSX são reconhecidos pelo conteúdo), não "${r.value}".` }),
  listen_invalid: (r) => ({ message: `${r.option} deve ser host:porta (por exemplo 127.0.0.1:8788), e não "${r.value}".` }),
  interval_invalid: () => ({ message: '--interval deve ser um número de segundos maior que zero.' }),
  timeout_invalid: (r) => ({ message: `--timeout: "${r.value}" não é uma duração (use, por exemplo, 90s, 30m, 2h ou 3d).` }),
  ui_listen_without_ui: () => ({ message: '--ui-listen só vale junto com --ui.' }),
  ui_with_once: () => ({ message: '--ui precisa de um daemon que continue rodando: tire o --once (ou rode paybatch ui à parte).' }),
  ledger_unusable: (r) => ({
    message: `O registro ${r.file} não é um registro do paybatch que se possa usar: ${DAMAGE[r.damage.kind](r.damage as never)}. O paybatch não mexeu nele.`,
    hint:
      (r.backup
        ? `Restaure um backup: tire ${r.file} do lugar e copie para lá o backup mais recente, ${r.backup}. `
        : 'Restaure-o de um backup, ou tire-o do lugar para começar um registro vazio. ') +
      "Quando um registro voltar a abrir, 'paybatch ledger backup' faz uma cópia para restaurar.",
  }),
  alerts_unknown: (r) => ({ message: `Não há alerta ${r.ids} no registro ${r.file}; nenhum foi reconhecido.`, hint: "Veja 'paybatch alerts list --all'." }),
  items_refused: (r) => ({
    message: `${r.call}: o provedor recusou com HTTP ${r.status}${r.detail ? ` (${r.detail})` : ''}`,
    hint:
      'O provedor recusou os itens como foram escritos, e recusaria de novo: confira o perfil com a documentação dele (pixAmountUnit para os valores; pixByAccount para pagamentos por dados bancários, que pedem um provedor que aceite Pix sem chave) e rode o mesmo comando de novo: a importação continua de onde parou, e cada item mantém seu identificador, então nada é pago duas vezes.',
  }),
  amount_unit_unset: (r) => {
    const [what, setting, variable, example] =
      r.of === 'pix'
        ? ['dos valores Pix', 'pixAmountUnit', 'PAYBATCH_PIX_AMOUNT_UNIT', 'o valor de um item vem em centavos (1107 para R$ 11,07) ou em reais (11.07)']
        : ['dos valores de contas', 'billAmountUnit', 'PAYBATCH_BILL_AMOUNT_UNIT', 'o valor de um pagamento de conta vem em reais (159.90 para R$ 159,90) ou em centavos (15990)'];
    return {
      message: `A unidade ${what} deste provedor não está definida, e o paybatch não a adivinha: uma unidade errada paga 100 vezes mais ou menos.`,
      hint: `Veja na documentação do provedor se ${example} e defina: paybatch config set ${setting} cents (ou reais), ou ${variable}.`,
    };
  },
  provider_url_invalid: (r) => ({ message: `${r.setting}: ${URL_PROBLEMS[r.problem]}.` }),
  approver_key_exists: (r) => ({
    message: `Já existe uma chave de aprovador em ${r.file}; o paybatch não a substitui.`,
    hint: `A chave pública está em ${r.publicKey}. Para criar outra, tire a antiga do lugar antes (e registre a nova com 'paybatch approver add').`,
  }),
  approver_key_missing: (r) => ({
    message: `Não há chave de aprovador em ${r.file}.`,
    hint: "Crie uma com 'paybatch approver init' e registre a chave pública com 'paybatch approver add'.",
  }),
  approver_key_shared: (r) => ({ message: `A chave de aprovador ${r.file} pode ser lida por outros usuários (modo ${r.mode}).`, hint: `Execute: chmod 600 ${r.file}` }),
  approver_key_unusable: (r) => ({
    message: `A chave de aprovador ${r.file} não pôde ser aberta: ${{ wrong_passphrase: 'senha errada', not_pkcs8: 'não é uma chave privada PEM PKCS#8', not_ed25519: 'não é uma chave Ed25519' }[r.problem]}.`,
  }),
  ledger_unreachable: (r) => ({
    message: `Não foi possível alcançar o registro ${r.ledger}${r.error === null ? '' : `: ${r.error}`}.`,
    hint: r.error === null
      ? 'Verifique o servidor do banco de dados; a próxima execução continua de onde esta parou.'
      : 'Verifique se o servidor está no ar e se a URL (host, porta, banco, usuário) está certa; defina-a com a configuração ledger, --ledger, PAYBATCH_LEDGER ou PAYBATCH_LEDGER_FILE.',
  }),
  ledger_busy: (r) => ({
    message: `O registro ${r.ledger} ficou travado por outro processo por ${r.seconds} s enquanto seu esquema seria atualizado.`,
    hint: 'Rode o comando de novo quando o outro paybatch (um daemon ou uma importação) terminar.',
  }),
  ledger_newer: (r) => ({ message: `O registro ${r.ledger} foi escrito por um paybatch mais novo (${r.detail}).`, hint: 'Atualize o paybatch antes de usar este registro; nada foi alterado.' }),
  ledger_url_unknown: (r) => ({
    message: `O registro ${r.ledger} não é nem um arquivo nem uma URL do PostgreSQL.`,
    hint: 'Indique um arquivo SQLite, ou um banco PostgreSQL como postgres://usuario:senha@host:5432/banco.',
  }),
  backup_exists: (r) => ({
    message: `${r.file} já existe; um backup nunca sobrescreve um arquivo.`,
    hint: 'Escolha outro nome com --to, ou deixe o --to de fora para um novo nome com data e hora.',
  }),
  daemon_running: (r) => ({
    message: `Outro daemon do paybatch está com este registro: pid ${r.pid} em ${r.host}, desde ${localDateTime(new Date(r.since), 'pt-BR')}.`,
    hint: 'Rode um daemon por registro; pare o outro antes (SIGTERM), ou use outro --ledger.',
  }),
  batch_started: (r) => ({ message: `O lote #${r.batchId} já foi iniciado; o provedor só exclui lotes pendentes.` }),
  batch_deleted: (r) => ({ message: `O lote #${r.batchId} foi excluído no provedor; não pode ser enviado de novo.` }),
  retry_raced: (r) => ({
    message: `Algumas linhas do lote #${r.batchId} foram pagas de novo por outra execução enquanto isso; nada foi criado.`,
    hint: `Rode 'paybatch batch retry ${r.batchId}' de novo para ver o que falta.`,
  }),
  report_target: (r) => ({
    message: {
      none: 'Diga o que relatar: um lote (paybatch report 3) ou um período (--month 2026-11, ou --from e --to).',
      both: 'Dê um lote ou um período (--month, ou --from e --to), não os dois.',
      month_and_days: '--month já é um período inteiro: deixe --from e --to de fora.',
      from_only: 'Um período precisa de --from e de --to (ou de --month).',
      to_only: 'Um período precisa de --from e de --to (ou de --month).',
    }[r.given],
  }),
  period_invalid: (r) => ({ message: `${r.option} deve ser ${r.form === 'YYYY-MM' ? 'um mês escrito AAAA-MM' : 'um dia escrito AAAA-MM-DD'}; "${r.value}" não é.` }),
  period_reversed: (r) => ({ message: `--from ${localDay(r.from, 'pt-BR')} vem depois de --to ${localDay(r.to, 'pt-BR')}.` }),
  report_ofx_needs_period: () => ({ message: 'O OFX é o extrato de um período: dê --month, ou --from e --to, em vez de um lote.' }),
  report_zip_needs_batch: () => ({ message: 'O --zip junta os comprovantes de um lote: vale com um lote, não com um período.' }),
  bill_not_unknown: (r) => ({
    message: `A situação da conta #${r.billId} é "${statusWord(r.status, 'pt-BR')}": só um pagamento de resultado desconhecido (ou nunca registrado) é resolvido à mão.`,
    hint: 'Veja a conta com: paybatch boleto list --all',
  }),
  statement_account_unset: (r) => ({
    message: `O perfil "${r.profile}" não tem a conta bancária da empresa (companyBank, companyBranch, companyAccount): o extrato OFX diz de que conta é.`,
    hint: `Defina as três: paybatch --profile ${r.profile} config set companyBank CÓDIGO (depois companyBranch e companyAccount); os extratos em CSV, XLSX e PDF não precisam delas.`,
  }),
};

const URL_PROBLEMS: { readonly [P in ProviderUrlProblem]: string } = {
  not_url: 'não é uma URL válida',
  scheme: 'deve começar com https:// ou http://',
  credentials: 'não pode levar credenciais; defina-as nas configurações apiKey, clientId e clientSecret',
  query: 'não pode ter consulta (?) nem fragmento (#)',
};

/** What is wrong with a ledger file paybatch refuses to open. */
const DAMAGE: { readonly [K in LedgerDamage['kind']]: (d: Extract<LedgerDamage, { kind: K }>) => string } = {
  empty_file: () => 'o arquivo está vazio',
  not_sqlite: () => 'não é um banco de dados SQLite (os primeiros bytes não são um cabeçalho SQLite)',
  shorter_than_header: (d) => `está truncado: ${d.size} bytes, menos que um cabeçalho SQLite`,
  truncated: (d) => `está truncado: ${d.size} bytes, e o cabeçalho diz ${d.expected}`,
  foreign_tables: (d) => `é um banco SQLite sem as tabelas do paybatch (tem ${d.tables})`,
  empty_database: () => 'é um banco SQLite vazio',
  sqlite_damaged: (d) => `o SQLite o considera danificado (${d.sqlite})`,
};

/** What a setting accepts, said after "not accepted"; `values` lists a one_of's values. */
const RULES: Readonly<Record<SettingRule, (values: string) => string>> = {
  not_empty: () => 'não pode ficar vazio',
  document: () => 'deve ser um CNPJ ou CPF válido',
  digits: () => 'deve ter só dígitos (o banco, 3: por exemplo 341; a agência, até 6)',
  url: () => 'deve ser uma URL http(s)',
  header_name: () => 'deve ser um nome de cabeçalho HTTP',
  one_of: (values) => `deve ser um destes: ${values}`,
  amount: () => 'deve ser um valor em reais, como 1.234,56',
  duration: () => 'deve ser uma duração, como 90s, 30m, 2h ou 3d',
  whole_above_zero: () => 'deve ser um número inteiro maior que zero',
  whole: () => 'deve ser um número inteiro',
  name_list: () => 'deve listar ao menos um nome, separados por vírgula',
  status_words: () => 'deve ser uma lista como EM_PROCESSAMENTO=processing,LIQUIDATED=paid',
  proxy_url: () => 'deve ser a URL http(s) de um proxy, como http://proxy.example.com:3128, ou none',
  email: () => 'deve ser um endereço de e-mail',
  email_with_name: () => 'deve ser um endereço de e-mail, com ou sem nome: Pagamentos <pagamentos@empresa.com.br>',
  number_above_zero: () => 'deve ser um número maior que zero',
  one_or_two: () => 'deve ser 1 ou 2',
  webhook_method: () => 'deve ser um destes: auto, standard-webhooks, hmac, header, basic, bearer',
};

/** What a setting accepts, as a whole sentence in `locale`'s words (a prompt's answer to a value it refuses). */
export function settingRuleText(r: { readonly rule: SettingRule; readonly values: string }, locale: Exclude<Locale, 'en'>): string {
  const said = { 'pt-BR': RULES }[locale][r.rule](r.values);
  return said.charAt(0).toUpperCase() + said.slice(1);
}

/** A system error's text (`ENOENT: no such file or directory, open '…'`) by its code, when it is a common one. */
function systemError(text: string): string {
  const code = /^(E[A-Z]+)\b/.exec(text)?.[1];
  return (code && { ENOENT: 'o arquivo não existe', EACCES: 'sem permissão de leitura', EISDIR: 'é uma pasta, não um arquivo' }[code]) ?? text;
}

const WORDS: Readonly<Record<Exclude<Locale, 'en'>, ReasonWords>> = { 'pt-BR': PORTUGUESE };

/** The error in `locale`: the catalog's words for its reason, or its own (English) message and hint. */
export function sayError(error: { readonly message: string; readonly hint?: string; readonly reason?: ErrorReason }, locale: Locale): SaidError {
  const reason = error.reason;
  if (locale === 'en' || reason === undefined) return { message: error.message, ...(error.hint === undefined ? {} : { hint: error.hint }) };
  return (WORDS[locale][reason.code] as (r: ErrorReason) => SaidError)(reason);
}
