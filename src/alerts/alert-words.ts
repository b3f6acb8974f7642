import { formatDuration } from '../domain/duration.js';
import type { Locale } from '../words/locale.js';
import { counted } from '../words/plural.js';
import { statusReasonText, statusWithReasonText } from '../words/payment-reasons.js';

/** The languages of alert texts (the locale of the profile). */
export type AlertLocale = Locale;

/** What an alert of one kind says to a person: its title for `count` items, what happened, and what to do about it. */
interface KindWords {
  title(count: number): string;
  /** Null: the summary the alert was raised with (English, with the profile's durations) is the text. */
  readonly summary: string | null;
  readonly nextStep: string;
}


const EN: Readonly<Record<AlertKind, KindWords>> = {
  'stale-items': {
    title: (n) => `${counted('en', n, { one: 'Pix payment', other: 'Pix payments' })} without news`,
    summary: null,
    nextStep: 'ask the provider about these payments by their id; `paybatch batch show <batch> --refresh` reads them again. Nothing is paid twice meanwhile.',
  },
  'final-return': {
    title: (n) => `${counted('en', n, { one: 'Pix payment', other: 'Pix payments' })} returned for good`,
    summary: null,
    nextStep: 'check each recipient\'s key and account with them, then pay again with `paybatch batch retry <batch> --status returned` (or `paybatch batch export` to fix the rows by hand).',
  },
  'unconfirmed-returns': {
    title: (n) => `${counted('en', n, { one: 'Pix return', other: 'Pix returns' })} the provider does not confirm`,
    summary: null,
    nextStep: 'ask the provider whether the money really came back; until its item pages show the return, nothing is paid again.',
  },
  'quarantined-events': {
    title: (n) => `${counted('en', n, { one: 'webhook event disagrees', other: 'webhook events disagree' })} with the ledger`,
    summary: null,
    nextStep: 'look at them with `paybatch events list`, find out who sends them, and change the webhook secret if it may have leaked.',
  },
  'record-disagrees': {
    title: (n) => `${counted('en', n, { one: 'Pix payment', other: 'Pix payments' })} corrected by the provider's record`,
    summary: null,
    nextStep: 'each item names what an event claimed and what the provider\'s own record shows, which the ledger now follows; find out who sent the event, and change the webhook secret if it may have leaked.',
  },
  'record-differs': {
    title: (n) => `${counted('en', n, { one: 'difference', other: 'differences' })} between a settled batch and the provider's record`,
    summary: null,
    nextStep: "an amount, an id or an item only one side holds cannot be followed by the ledger: ask the provider about each one, and pay nothing of those rows again before they answer; `paybatch reconcile <batch>` compares the batch again.",
  },
  'stray-batches': {
    title: (n) => `${counted('en', n, { one: 'stray remote batch', other: 'stray remote batches' })} at the provider`,
    summary: null,
    nextStep: "delete each one in the provider's web interface (the ledger's batch is on the remote batch holding its items); `paybatch ledger check` lists them until then.",
  },
  'certificate-expiring': {
    title: () => 'The client certificate of the provider is about to expire',
    summary: null,
    nextStep: 'ask the provider (or your certificate authority) for a new certificate and set it with clientCert/clientKey or clientPfx before the date named; `paybatch provider check` shows the one in use.',
  },
  'batch-refused': {
    title: (n) => `${counted('en', n, { one: 'batch', other: 'batches' })} the provider keeps refusing`,
    summary: null,
    nextStep: "read the provider's answer on each one (`paybatch batch show <batch>`), fix what it names, then start the batch with `paybatch batch start <batch>`; the daemon no longer sends it by itself.",
  },
  failures: {
    title: (n) => `${counted('en', n, { one: 'Pix payment', other: 'Pix payments' })} failed`,
    summary: null,
    nextStep: 'read the reason on each item (`paybatch batch items <batch> --status failed`), fix the key or account, then pay again with `paybatch batch retry <batch>`.',
  },
  'receipts-unavailable': {
    title: (n) => `${counted('en', n, { one: 'paid Pix payment', other: 'paid Pix payments' })} without a receipt to fetch`,
    summary: null,
    nextStep: 'download the receipts from the provider\'s web interface, or name the item field that carries the Pix id in the pixIdFields setting.',
  },
  'bill-return': {
    title: (n) => `${counted('en', n, { one: 'bill payment', other: 'bill payments' })} returned by the beneficiary`,
    summary: null,
    nextStep: 'read the reason on each bill (`paybatch boleto list`), settle it with the beneficiary, and pay again with `paybatch boleto pay --force` once the cause is fixed.',
  },
  'bills-without-news': {
    title: (n) => `${counted('en', n, { one: 'bill payment', other: 'bill payments' })} without news`,
    summary: null,
    nextStep: 'look for each bill on the provider\'s statement and record it with `paybatch boleto resolve`; pay again with --force only a bill that is not there.',
  },
  'scheduled-bill-refused': {
    title: (n) => `${counted('en', n, { one: 'scheduled bill', other: 'scheduled bills' })} not paid on their day`,
    summary: null,
    nextStep: 'read the reason on the bill, fix what it names (the bill, the approvals, the provider), then pay it with `paybatch boleto pay <code>`; the daemon does not try it again.',
  },
};

const PT: Readonly<Record<AlertKind, KindWords>> = {
  'stale-items': {
    title: (n) => `${counted('pt-BR', n, { one: 'pagamento Pix', other: 'pagamentos Pix' })} sem notícias`,
    summary: 'O provedor não atualiza estes pagamentos há mais tempo do que o limite alertAfter, mesmo com as páginas de itens lidas de novo a cada passagem.',
    nextStep: 'pergunte ao provedor por estes pagamentos pelo id; `paybatch batch show <lote> --refresh` lê os itens de novo. Nada é pago duas vezes enquanto isso.',
  },
  'final-return': {
    title: (n) => `${counted('pt-BR', n, { one: 'pagamento Pix devolvido', other: 'pagamentos Pix devolvidos' })} em definitivo`,
    summary: 'Devolvidos por um motivo que não é instabilidade do Pix (ou após todas as novas tentativas): o dinheiro voltou e ninguém foi pago.',
    nextStep: 'confira com cada recebedor a chave e a conta, e pague de novo com `paybatch batch retry <lote> --status returned` (ou `paybatch batch export` para corrigir as linhas à mão).',
  },
  'unconfirmed-returns': {
    title: (n) => `${counted('pt-BR', n, { one: 'devolução Pix', other: 'devoluções Pix' })} que o provedor não confirma`,
    summary: 'Um evento disse que estes pagamentos voltaram por instabilidade, mas as páginas de itens do provedor não os mostram devolvidos; por isso não são pagos de novo.',
    nextStep: 'pergunte ao provedor se o dinheiro voltou mesmo; enquanto as páginas de itens não mostrarem a devolução, nada é pago de novo.',
  },
  'quarantined-events': {
    title: (n) => `${counted('pt-BR', n, { one: 'evento de webhook diverge', other: 'eventos de webhook divergem' })} do registro local`,
    summary: 'Eventos com assinatura correta cujo valor, chave ou lote não batem com o pagamento que citam foram guardados à parte, sem efeito; os pagamentos seguem as páginas de itens do provedor.',
    nextStep: 'veja-os com `paybatch events list`, descubra quem os envia e troque o segredo do webhook se ele pode ter vazado.',
  },
  'record-disagrees': {
    title: (n) => `${counted('pt-BR', n, { one: 'pagamento Pix corrigido', other: 'pagamentos Pix corrigidos' })} pelo registro do provedor`,
    summary: 'Um evento disse uma coisa destes pagamentos e o registro do próprio provedor (as páginas de itens) mostra outra; o registro local segue o do provedor.',
    nextStep: 'cada item diz o que o evento afirmou e o que o registro do provedor mostra; descubra quem enviou o evento e troque o segredo do webhook se ele pode ter vazado.',
  },
  'record-differs': {
    title: (n) => `${counted('pt-BR', n, { one: 'diferença', other: 'diferenças' })} entre um lote liquidado e o registro do provedor`,
    summary: 'Depois de liquidado, o lote foi comparado mais uma vez, campo a campo, com as páginas de itens do provedor.',
    nextStep: 'um valor, um identificador ou um item que só um dos lados tem não pode ser seguido pelo registro local: pergunte ao provedor sobre cada um e não pague de novo essas linhas antes da resposta; `paybatch reconcile <lote>` compara o lote de novo.',
  },
  'stray-batches': {
    title: (n) => `${counted('pt-BR', n, { one: 'lote remoto perdido', other: 'lotes remotos perdidos' })} no provedor`,
    summary: 'Uma execução do paybatch que perdeu a vez num lote (ficou parada, ou sem o banco, enquanto outro servidor assumia o lote) já tinha criado outro lote remoto para ele no provedor, e ele não pôde ser apagado lá.',
    nextStep: 'apague cada um na interface web do provedor (o lote do registro local está no lote remoto que tem os itens); `paybatch ledger check` os lista até lá.',
  },
  'certificate-expiring': {
    title: () => 'O certificado de cliente do provedor está para vencer',
    summary: 'O certificado de cliente usado nas chamadas ao provedor vence em breve; depois disso o provedor recusa todas as chamadas.',
    nextStep: 'peça um novo certificado ao provedor (ou à sua autoridade certificadora) e defina-o com clientCert/clientKey ou clientPfx antes da data indicada; `paybatch provider check` mostra o que está em uso.',
  },
  'batch-refused': {
    title: (n) => `${counted('pt-BR', n, { one: 'lote que o provedor recusa', other: 'lotes que o provedor recusa' })} seguidamente`,
    summary: 'O provedor recusou estes lotes três vezes seguidas; o daemon não os envia mais sozinho.',
    nextStep: 'leia a resposta do provedor em cada um (`paybatch batch show <lote>`), corrija o que ela aponta e inicie o lote com `paybatch batch start <lote>`.',
  },
  failures: {
    title: (n) => `${counted('pt-BR', n, { one: 'pagamento Pix falhou', other: 'pagamentos Pix falharam' })}`,
    summary: 'O provedor recusou estes pagamentos; o motivo está em cada item.',
    nextStep: 'leia o motivo de cada item (`paybatch batch items <lote> --status failed`), corrija a chave ou a conta e pague de novo com `paybatch batch retry <lote>`.',
  },
  'receipts-unavailable': {
    title: (n) => `${counted('pt-BR', n, { one: 'pagamento Pix pago', other: 'pagamentos Pix pagos' })} sem comprovante para buscar`,
    summary: 'Estão pagos, mas o provedor não informou o id Pix (nem nas páginas de itens, nem num evento), e os comprovantes são buscados por ele.',
    nextStep: 'baixe os comprovantes na interface web do provedor, ou informe no ajuste pixIdFields o campo do item que traz o id Pix.',
  },
  'bill-return': {
    title: (n) => `${counted('pt-BR', n, { one: 'pagamento de conta devolvido', other: 'pagamentos de conta devolvidos' })} pelo beneficiário`,
    summary: 'O dinheiro voltou para a conta; o motivo recebido e o seu significado estão em cada conta.',
    nextStep: 'leia o motivo de cada conta (`paybatch boleto list`), resolva com o beneficiário e pague de novo com `paybatch boleto pay --force` depois de corrigida a causa.',
  },
  'bills-without-news': {
    title: (n) => `${counted('pt-BR', n, { one: 'pagamento de conta', other: 'pagamentos de conta' })} sem notícias`,
    summary: 'O resultado destes pagamentos é desconhecido há mais tempo do que o limite alertAfter, ou estavam agendados e a data passou sem notícia do provedor.',
    nextStep: 'procure cada conta no extrato do provedor e registre o que encontrar com `paybatch boleto resolve`; pague de novo com --force só uma conta que não esteja lá.',
  },
  'scheduled-bill-refused': {
    title: (n) => `${counted('pt-BR', n, { one: 'conta agendada não paga', other: 'contas agendadas não pagas' })} no dia`,
    summary: 'Uma conta de uma remessa CNAB 240, agendada para este dia, foi recusada quando o daemon foi pagá-la; o motivo está na conta, com o arquivo e a linha da remessa.',
    nextStep: 'leia o motivo na conta, corrija o que ele aponta (a conta, as aprovações, o provedor) e pague-a com `paybatch boleto pay <código>`; o daemon não tenta de novo.',
  },
};

/** The fixed words of alert texts. */
export interface AlertFrame {
  readonly kinds: Readonly<Record<string, KindWords>>;
  /** An item's status with its reason, for people (the fields of alert.ts's AlertItem). */
  status(item: { readonly status: string; readonly state?: string; readonly reason?: string | null; readonly returnMeaning?: string | null }): string;
  line(n: number): string;
  since: string;
  id: string;
  items(count: number, total: string, zone: string): string;
  more(n: number): string;
  nextStep: string;
  footer(o: { id: number; kind: string; profile: string; at: string; zone: string; command: string }): string;
}

export const ALERT_WORDS: Readonly<Record<AlertLocale, AlertFrame>> = {
  en: {
    kinds: EN,
    // English: the line as stored, the provider's texts as given.
    status: (i) => i.status,
    line: (n) => `line ${n}`,
    since: 'since',
    id: 'id',
    items: (count, total, zone) => `${counted('en', count, { one: 'item', other: 'items' })}, total ${total} (times in ${zone})`,
    more: (n) => `and ${n} more`,
    nextStep: 'What to do',
    footer: (o) => `paybatch alert #${o.id} (${o.kind}), profile ${o.profile}, ${o.at} (${o.zone}); see \`${o.command}\``,
  },
  'pt-BR': {
    kinds: PT,
    status: (i) => (i.state === undefined ? statusWithReasonText(i.status, 'pt-BR') : statusReasonText({ ...i, status: i.state }, 'pt-BR')),
    line: (n) => `linha ${n}`,
    since: 'desde',
    id: 'id',
    items: (count, total, zone) => `${counted('pt-BR', count, { one: 'item', other: 'itens' })}, total ${total} (${zone})`,
    more: (n) => `e mais ${n}`,
    nextStep: 'O que fazer',
    footer: (o) => `alerta #${o.id} do paybatch (${o.kind}), perfil ${o.profile}, ${o.at} (${o.zone}); veja \`${o.command}\``,
  },
};

/**
 * What the engine raises an alert with besides its items, per kind: the profile's durations (seconds), the count of
 * refusals, the certificate's names and end. Plain data; the words below turn it into the alert's summary.
 */
export interface AlertFactsOf {
  'stale-items': { readonly alertAfter: number };
  'final-return': Record<string, never>;
  'unconfirmed-returns': { readonly alertAfter: number };
  'quarantined-events': Record<string, never>;
  'record-disagrees': Record<string, never>;
  'record-differs': Record<string, never>;
  failures: Record<string, never>;
  'receipts-unavailable': { readonly receiptWait: number };
  'bill-return': Record<string, never>;
  'bills-without-news': { readonly alertAfter: number };
  'scheduled-bill-refused': { readonly file: string; readonly line: number; readonly payOn: string; readonly error: string };
  'stray-batches': Record<string, never>;
  'batch-refused': { readonly refusals: number };
  'certificate-expiring': { readonly file: string; readonly subject: string; readonly issuer: string; readonly notAfter: string; readonly days: number };
}

/** The kinds of alert the engine raises. */
export type AlertKind = keyof AlertFactsOf;

/**
 * The title and summary the ledger keeps for a new alert, in English (what `alerts list --json` shows, and the text a
 * kind without words of its own falls back to), from its kind, its facts and how many items it names.
 */
export function storedAlertText<K extends AlertKind>(kind: K, facts: AlertFactsOf[K], count: number): { title: string; summary: string } {
  return { title: EN[kind].title(count), summary: STORED_SUMMARY[kind](facts) };
}

/**
 * The English summary the ledger keeps with an alert (`alerts list`, the dashboard and a re-sent alert read it; the
 * English texts show it, the Portuguese ones have their own words above).
 */
const STORED_SUMMARY: { readonly [K in AlertKind]: (f: AlertFactsOf[K]) => string } = {
  'stale-items': (f) => `No update from the provider for over ${formatDuration(f.alertAfter)}, even after asking for the item pages again at every pass.`,
  'final-return': () => 'Returned for a reason that is not scheme instability (or out of reprocess attempts): the money is back, nobody was paid; decide what to do.',
  'unconfirmed-returns': (f) =>
    `A refund event said these payments came back for instability, but for over ${formatDuration(f.alertAfter)} the provider's own item pages have not shown them returned, so they are not paid again: check with the provider whether the money really came back.`,
  'quarantined-events': () =>
    "Correctly signed events whose amount, key or batch do not match the payment they name were kept aside, not applied; the payments follow the provider's own item pages instead. Check who sends them.",
  'record-disagrees': () =>
    "A correctly signed event claimed one outcome for these payments and the provider's own item pages show another: the ledger now follows the pages. Nothing was paid again on the event's word.",
  'record-differs': () =>
    "Once settled, these batches were compared again with the provider's own item pages, field by field, and differ where the ledger cannot follow by itself. Nothing was paid again because of them.",
  failures: () => 'The provider refused these payments; the reason is on each item.',
  'receipts-unavailable': (f) =>
    `They are paid, but the provider gave no Pix id for them (not in its item pages, no event within ${formatDuration(f.receiptWait)}), and receipts are fetched by that id. Get them from the provider's web interface, or, if its item pages carry the id under another name, name that field in the pixIdFields setting.`,
  'bill-return': () => 'The money is back in the account; the reason received and its meaning are on each bill.',
  'bills-without-news': (f) =>
    `Their outcome is unknown for over ${formatDuration(f.alertAfter)}, or they were scheduled and their settle date has passed with no word from the provider. Bill payments cannot be looked up through the API: check the provider's statement; pay again with --force only a bill that is not there.`,
  'scheduled-bill-refused': (f) =>
    `The bill of ${f.file}:${f.line}, scheduled for ${f.payOn}, was refused when the daemon went to pay it (${f.error}). Nothing was paid; the daemon does not try it again.`,
  'stray-batches': () =>
    "A paybatch run that lost its claim on a batch (it paused, or lost the ledger, while another host took the batch over) had already created another remote batch for it at the provider, which could not be deleted there. The ledger's batch is the one holding its items; delete the stray one in the provider's web interface.",
  'batch-refused': (f) =>
    `The provider refused these batches ${f.refusals} times in a row; the daemon no longer sends them again by itself. Read the provider's answer, fix what it names, then start the batch with 'paybatch batch start'.`,
  'certificate-expiring': (f) =>
    `The client certificate ${f.file} (${f.subject}, issued by ${f.issuer}) ends on ${f.notAfter}, in ${counted('en', f.days, { one: 'day', other: 'days' })}; after that the provider refuses every call.`,
};
