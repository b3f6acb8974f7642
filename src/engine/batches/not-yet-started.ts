/** Batch statuses a re-run of the import can still move (create, submit, start); settled and deleted ones are done. */
const NOT_YET_STARTED: readonly string[] = ['draft', 'created', 'submitted'];

/** Whether a batch in `status` has not been started yet (so a re-run of its import takes it further). */
export const notYetStarted = (status: string): boolean => NOT_YET_STARTED.includes(status);
