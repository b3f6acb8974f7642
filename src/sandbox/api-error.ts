/** One problem with a field of a request: `field` is a path such as `name`, `[3].amount` or `[0].to.key`. */
export interface FieldProblem {
  readonly field: string;
  readonly problem: string;
}

/**
 * An error answer of the sandbox API, rendered as `{"error":{"code","message","details":[{field,problem}]}}`.
 * Routes throw it; the error handler of the app turns it into the response.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: readonly FieldProblem[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  body(): { error: { code: string; message: string; details: readonly FieldProblem[] } } {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

export const invalidInput = (details: readonly FieldProblem[]): ApiError =>
  new ApiError(400, 'invalid_input', `the request has ${details.length} invalid field${details.length === 1 ? '' : 's'}`, details);

export const notFound = (what: string): ApiError => new ApiError(404, 'not_found', `${what} not found`);

export const conflict = (code: string, message: string, details: readonly FieldProblem[] = []): ApiError =>
  new ApiError(409, code, message, details);

export const ruleBroken = (code: string, message: string, details: readonly FieldProblem[] = []): ApiError =>
  new ApiError(422, code, message, details);
