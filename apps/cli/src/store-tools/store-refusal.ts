// A store tool's refusal, as a problem (status, code, words): the tools that need no service modules (backup, copy,
// verify) start without loading the HTTP side, and it becomes a ProblemError only when reported.
export class StoreRefusal extends Error {
  constructor(
    readonly status: 400 | 409,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'StoreRefusal';
  }
}

export const invalidInput = (detail: string): StoreRefusal =>
  new StoreRefusal(400, 'VALIDATION_FAILED', 'The request is not valid', detail);
