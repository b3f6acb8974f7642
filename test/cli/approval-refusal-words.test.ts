import { describe, expect, it } from 'vitest';
import { explainApprovalRefusal } from '../../src/cli/messages/approval-words.js';
import type { ApprovalRefusal } from '../../src/engine/approvals/index.js';

/** The engine's refusals are codes and data; these are their words, checked against sentences written by hand. */
const lacking: ApprovalRefusal = {
  code: 'approvals_missing',
  profile: 'default',
  approversRegistered: true,
  lacking: [
    {
      target: { kind: 'batch', id: 4, name: 'Folha' },
      required: 2, valid: 1, missing: 1,
      reasons: [{ rule: 'total', aboveCents: 500_000 }, { rule: 'rows', above: 10 }],
      notCounted: [{ approver: 'bruno', problem: 'content-changed' }],
      makerProven: true,
      waitingFor: ['carla'],
    },
    {
      target: { kind: 'bill', line: '23793381286008301352856000063307789840000150000' },
      required: 1, valid: 0, missing: 1,
      reasons: [{ rule: 'item', aboveCents: 100_000 }],
      notCounted: [],
      makerProven: false,
      waitingFor: [],
    },
  ],
};

describe('the words of approval refusals', () => {
  it('the maker trying to approve their own batch, in English and in Portuguese', () => {
    const refusal: ApprovalRefusal = { code: 'maker_cannot_approve', batchId: 4 };
    expect(explainApprovalRefusal('en')(refusal)).toEqual({ message: 'You made batch #4; the maker of a batch can never approve it. Another approver must.' });
    expect(explainApprovalRefusal('pt-BR')(refusal)).toEqual({ message: 'Você fez o lote #4; quem faz um lote nunca pode aprová-lo. Outro aprovador precisa aprovar.' });
  });

  it('a key the profile does not register, with the command that registers it', () => {
    const refusal: ApprovalRefusal = { code: 'key_not_registered', fingerprint: 'SHA256:abc', publicKey: 'ssh-ed25519 AAAA', profile: 'prod' };
    expect(explainApprovalRefusal('en')(refusal)).toEqual({
      message: 'Your approver key (SHA256:abc) is not registered in the profile "prod".',
      hint: 'Ask whoever keeps the profile to run: paybatch approver add <your name> ssh-ed25519 AAAA',
    });
    expect(explainApprovalRefusal('pt-BR')(refusal)).toEqual({
      message: 'Sua chave de aprovador (SHA256:abc) não está registrada no perfil "prod".',
      hint: 'Peça a quem cuida do perfil para rodar: paybatch approver add <seu nome> ssh-ed25519 AAAA',
    });
  });

  it('the gate: what each target lacks, why an approval does not count, an unproven maker, and what to run', () => {
    expect(explainApprovalRefusal('en')(lacking)).toEqual({
      message: [
        'Batch #4 "Folha" needs 2 approvals before it can start (its total is above R$ 5.000,00; it has more than 10 rows); it has 1 valid. Nothing was sent.',
        '  The approval by "bruno" does not count: the content changed after it was signed.',
        'The bill 23793381286008301352856000063307789840000150000 needs 1 approval before it is paid (it pays more than R$ 1.000,00 at once); it has 0 valid. Nothing was paid.',
        '  The payer of this bill is not proven: paying it needs your registered approver key, which signs you as its maker (PAYBATCH_APPROVER_KEY, PAYBATCH_APPROVER_PASSPHRASE or PAYBATCH_APPROVER_PASSPHRASE_FILE).',
      ].join('\n'),
      hint: [
        "An approver other than its maker signs it with 'paybatch batch approve 4' (registered: carla), then run this again.",
        "An approver signs it with 'paybatch boleto approve 23793381286008301352856000063307789840000150000', then run this again.",
      ].join('\n'),
    });
    expect(explainApprovalRefusal('pt-BR')(lacking)).toEqual({
      message: [
        'O lote #4 "Folha" precisa de 2 aprovações antes de iniciar (o total passa de R$ 5.000,00; tem mais de 10 linhas); tem 1 válida. Nada foi enviado.',
        '  A aprovação de "bruno" não conta: o conteúdo mudou depois de assinado.',
        'O boleto 23793381286008301352856000063307789840000150000 precisa de 1 aprovação antes de ser pago (paga mais de R$ 1.000,00 de uma vez); tem 0 válidas. Nada foi pago.',
        '  Quem paga este boleto não está provado: pagá-lo exige sua chave de aprovador registrada, que assina você como quem o fez (PAYBATCH_APPROVER_KEY, PAYBATCH_APPROVER_PASSPHRASE ou PAYBATCH_APPROVER_PASSPHRASE_FILE).',
      ].join('\n'),
      hint: [
        "Um aprovador que não seja quem fez o lote assina com 'paybatch batch approve 4' (registrados: carla); depois rode isto de novo.",
        "Um aprovador assina com 'paybatch boleto approve 23793381286008301352856000063307789840000150000'; depois rode isto de novo.",
      ].join('\n'),
    });
  });

  it('a batch nobody is proven to have made, in a profile without approvers: claim it, and register approvers', () => {
    const refusal: ApprovalRefusal = {
      code: 'approvals_missing',
      profile: 'prod',
      approversRegistered: false,
      lacking: [{ target: { kind: 'batch', id: 9, name: 'Março' }, required: 1, valid: 0, missing: 1, reasons: [{ rule: 'total', aboveCents: 0 }], notCounted: [], makerProven: false, waitingFor: [] }],
    };
    expect(explainApprovalRefusal('pt-BR')(refusal).hint).toBe(
      [
        "Uma pessoa com chave registrada assina como quem fez o lote com 'paybatch batch claim 9' (e depois nunca pode aprová-lo).",
        "Um aprovador que não seja quem fez o lote assina com 'paybatch batch approve 9'; depois rode isto de novo.",
        'O perfil "prod" ainda não registra aprovadores: inclua-os com \'paybatch approver add <nome> <chave pública>\'.',
      ].join('\n'),
    );
  });
});
