import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch batch retry`. */
export interface BatchRetryHelp {
  readonly description: string;
  readonly id: string;
  readonly status: string;
  readonly start: string;
  readonly yes: string;
  readonly allowDuplicates: string;
  /** How a retry never pays twice, and the examples. */
  readonly examples: string;
}

export const batchRetryHelp: Readonly<Record<Locale, BatchRetryHelp>> = {
  en: {
    description: 'pay again, in a new batch, the rows of a batch that failed or were returned for good',
    id: 'local #id or provider id',
    status: 'which rows: failed, returned (repeat or separate by commas; default: both)',
    start: 'start the new batch once every item is added',
    yes: 'do not ask for confirmation',
    allowDuplicates: 'go on although a row pays a key the same amount as a payment of the last 30 days',
    examples: `
Each new payment gets an identifier derived from the one it pays again, and a row is taken only while no other
payment of it is under way or paid: running the command again continues the same batch, never a second one.

Examples:
  paybatch batch retry 3 --status failed
  paybatch batch retry 3 --start --yes --json`,
  },
  'pt-BR': {
    description: 'paga de novo, em um novo lote, as linhas de um lote que falharam ou foram devolvidas em definitivo',
    id: '#id local ou id no provedor',
    status: 'quais linhas: failed, returned (pode repetir a opção ou separar por vírgulas; padrão: as duas)',
    start: 'inicia o novo lote assim que todos os itens forem adicionados',
    yes: 'não pede confirmação',
    allowDuplicates: 'segue em frente mesmo que uma linha pague a uma chave o mesmo valor de um pagamento dos últimos 30 dias',
    examples: `
Cada novo pagamento recebe um identificador derivado do pagamento que ele repete, e uma linha só entra enquanto
nenhum outro pagamento dela estiver em andamento ou pago: rodar o comando de novo continua o mesmo lote, nunca
cria um segundo.

Exemplos:
  paybatch batch retry 3 --status failed
  paybatch batch retry 3 --start --yes --json`,
  },
};
