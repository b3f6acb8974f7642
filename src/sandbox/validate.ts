import { invalidInput, type FieldProblem } from './api-error.js';

/** Collects every problem of a request body, so one 400 answer lists them all with their field paths. */
export class Problems {
  readonly list: FieldProblem[] = [];

  add(field: string, problem: string): void {
    this.list.push({ field, problem });
  }

  /** The text at `field` of `body`; records a problem when missing (if required), not a string, or too long. */
  text(body: Record<string, unknown>, field: string, path: string, o: { required: boolean; max: number }): string | undefined {
    const value = body[field];
    if (value === undefined || value === null) {
      if (o.required) this.add(path, 'is required');
      return undefined;
    }
    const problem =
      typeof value !== 'string' ? 'must be a string'
      : o.required && value.trim() === '' ? 'must not be empty'
      : value.length > o.max ? `must have at most ${o.max} characters`
      : null;
    if (problem === null) return value as string;
    this.add(path, problem);
    return undefined;
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw invalidInput(this.list);
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A body that must be a JSON object; anything else is a 400 on the whole body. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw invalidInput([{ field: '(body)', problem: 'must be a JSON object' }]);
  return body;
}
