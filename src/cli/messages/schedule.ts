import type { Locale } from '../../words/locale.js';

/** What people are told about a batch scheduled by `import --pay-on` (the `--json` documents are not translated). */
export interface ScheduleMessages {
  /** `batch show`: the schedule and where it stands; `when` is São Paulo time, labelled. */
  state(state: string, when: string, batchId: number): string;
  /** `batch start` before the day. */
  confirmEarly(id: number, name: string, when: string): string;
  startingEarly(id: number, when: string): string;
}

export const scheduleMessages: Readonly<Record<Locale, ScheduleMessages>> = {
  en: {
    state: (state, when, id) =>
      ({
        scheduled: `Scheduled: the daemon starts it on ${when}.`,
        started: `Scheduled for ${when}: started.`,
        missed: `Scheduled for ${when}, but no daemon ran that day: it was not started. Start it with: paybatch batch start ${id}`,
        cancelled: `Scheduled for ${when}: cancelled (the batch was deleted).`,
      })[state] ?? `Scheduled for ${when}: ${state}.`,
    confirmEarly: (id, name, when) => `Batch #${id} "${name}" is scheduled to start on ${when}. Start it now instead?`,
    startingEarly: (id, when) => `Batch #${id} was scheduled to start on ${when}; starting it now.`,
  },
  'pt-BR': {
    state: (state, when, id) =>
      ({
        scheduled: `Agendado: o daemon inicia o lote em ${when}.`,
        started: `Agendado para ${when}: iniciado.`,
        missed: `Agendado para ${when}, mas nenhum daemon rodou nesse dia: o lote não foi iniciado. Inicie com: paybatch batch start ${id}`,
        cancelled: `Agendado para ${when}: cancelado (o lote foi excluído).`,
      })[state] ?? `Agendado para ${when}: ${state}.`,
    confirmEarly: (id, name, when) => `O lote #${id} "${name}" está agendado para ${when}. Iniciar agora?`,
    startingEarly: (id, when) => `O lote #${id} estava agendado para ${when}; iniciando agora.`,
  },
};
