import { describe, expect, it } from 'vitest';
import { renderAlertText, storedAlertText, storedAlertWords } from '../../src/alerts/alert.js';
import { alert, item } from './fixtures.js';

/** The engine raises an alert as a kind, its facts and its items; these are its words, written here by hand. */
describe('the words of an alert raised as a kind and its facts', () => {
  it('the ledger keeps an English title and summary, with the profile durations the facts carry', () => {
    expect(storedAlertText('receipts-unavailable', { receiptWait: 5400 }, 2)).toEqual({
      title: '2 paid Pix payments without a receipt to fetch',
      summary:
        "They are paid, but the provider gave no Pix id for them (not in its item pages, no event within 1h30m), and receipts are fetched by that id. Get them from the provider's web interface, or, if its item pages carry the id under another name, name that field in the pixIdFields setting.",
    });
    expect(storedAlertText('certificate-expiring', { file: '/etc/paybatch/client.pem', subject: 'CN=acme', issuer: 'CN=Banco CA', notAfter: '2026-12-01T00:00:00.000Z', days: 1 }, 0)).toEqual({
      title: 'The client certificate of the provider is about to expire',
      summary: 'The client certificate /etc/paybatch/client.pem (CN=acme, issued by CN=Banco CA) ends on 2026-12-01T00:00:00.000Z, in 1 day; after that the provider refuses every call.',
    });
    expect(storedAlertText('batch-refused', { refusals: 3 }, 1).title).toBe('1 batch the provider keeps refusing');
  });

  it('a channel in pt-BR says it in Portuguese from its kind, and in English with the text the ledger keeps', () => {
    const stored = storedAlertText('receipts-unavailable', { receiptWait: 5400 }, 2);
    const raised = alert({ kind: 'receipts-unavailable', ...stored, items: [item(0, { status: 'paid' }), item(1, { status: 'paid' })] });
    const pt = renderAlertText(raised, 'pt-BR').split('\n');
    expect(pt[0]).toBe('2 pagamentos Pix pagos sem comprovante para buscar');
    expect(pt[2]).toBe('Estão pagos, mas o provedor não informou o id Pix (nem nas páginas de itens, nem num evento), e os comprovantes são buscados por ele.');
    expect(pt).toContain(
      'O que fazer: baixe os comprovantes na interface web do provedor, ou informe no ajuste pixIdFields o campo do item que traz o id Pix.',
    );
    const en = renderAlertText(raised, 'en').split('\n');
    expect(en[0]).toBe('2 paid Pix payments without a receipt to fetch');
    expect(en[2]).toBe(stored.summary);
  });

  it("the dashboard's words for a stored alert, by its kind and count, in both languages", () => {
    const stored = { kind: 'bill-return', title: '3 bill payments returned by the beneficiary', summary: 'The money is back in the account; the reason received and its meaning are on each bill.', itemCount: 1 };
    expect(storedAlertWords(stored, 'en')).toEqual({
      title: '1 bill payment returned by the beneficiary',
      summary: 'The money is back in the account; the reason received and its meaning are on each bill.',
      nextStep: 'What to do: read the reason on each bill (`paybatch boleto list`), settle it with the beneficiary, and pay again with `paybatch boleto pay --force` once the cause is fixed.',
    });
    expect(storedAlertWords(stored, 'pt-BR')).toEqual({
      title: '1 pagamento de conta devolvido pelo beneficiário',
      summary: 'O dinheiro voltou para a conta; o motivo recebido e o seu significado estão em cada conta.',
      nextStep: 'O que fazer: leia o motivo de cada conta (`paybatch boleto list`), resolva com o beneficiário e pague de novo com `paybatch boleto pay --force` depois de corrigida a causa.',
    });
    // A kind without words of its own (raised by a newer version) keeps the text the ledger holds.
    expect(storedAlertWords({ kind: 'something-new', title: 'Something new', summary: 'It happened.', itemCount: 0 }, 'pt-BR')).toEqual({ title: 'Something new', summary: 'It happened.', nextStep: null });
  });
});
