/**
 * The outcome of a rule that can refuse its input: a value, or why not. The domain's validators give a reason
 * object (`ValidationReason`: a code and its data); rules not yet moved to reasons still give a string.
 */
export type Result<T, E = string> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const fail = <E = string>(error: E): Result<never, E> => ({ ok: false, error });
