// A path parameter or the query checked as Nest extracts it, by the same ZodValidationPipe that
// `@Param(name, pipe)` or `@Query(pipe)` would run: the same value, the same 400 VALIDATION_FAILED.
// Nest runs a pipe through an asynchronous chain of promises per argument; a checked argument is settled where it is
// read.
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { z } from 'zod';
import type { ZodValidationPipe } from './zod-validation.pipe.js';

/** What a checked argument reads and how it is checked: also what the OpenAPI document is made from. */
export class CheckedArgument {
  constructor(
    readonly type: 'param' | 'query',
    /** The path parameter's name; undefined for the whole query. */
    readonly name: string | undefined,
    readonly pipe: ZodValidationPipe<z.ZodType>,
  ) {}

  check(request: Request): unknown {
    const value: unknown = this.name === undefined ? request.query : request.params[this.name];
    return this.pipe.transform(value, { type: this.type, data: this.name });
  }
}

// An HTTP route's first argument is its request (what switchToHttp().getRequest() answers, without the three closures
// it makes).
const checkedArgument = createParamDecorator((argument: CheckedArgument, context: ExecutionContext) =>
  argument.check(context.getArgByIndex<Request>(0)),
);

/** `@CheckedParam('id', validOrganizationId)`: as `@Param('id', validOrganizationId)`, checked without a promise. */
export const CheckedParam = (name: string, pipe: ZodValidationPipe<z.ZodType>): ParameterDecorator =>
  checkedArgument(new CheckedArgument('param', name, pipe));

/** `@CheckedQuery(pipe)`: as `@Query(pipe)`, checked without a promise. */
export const CheckedQuery = (pipe: ZodValidationPipe<z.ZodType>): ParameterDecorator =>
  checkedArgument(new CheckedArgument('query', undefined, pipe));
