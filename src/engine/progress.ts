/** What long engine work reports while it runs; the CLI turns it into a spinner, a bar or log lines. */
export type Progress =
  | { readonly phase: 'lookup'; readonly done: number; readonly total: number }
  | { readonly phase: 'create-batch'; readonly name: string }
  | { readonly phase: 'add-items'; readonly done: number; readonly total: number }
  | { readonly phase: 'start'; readonly batchId: string };

export type OnProgress = (p: Progress) => void;
