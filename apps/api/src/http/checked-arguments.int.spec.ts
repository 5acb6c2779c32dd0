import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Module, Param, Query } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import pino from 'pino';
import { z } from 'zod';
import { PINO } from '../logging/pino.js';
import { CheckedParam, CheckedQuery } from './checked-arguments.js';
import { ProblemDetailsFilter } from './problem-details.filter.js';
import { ErrorAnswers } from './error-answers.js';
import { ZodValidationPipe } from './zod-validation.pipe.js';

const validId = new ZodValidationPipe(z.string().regex(/^[a-z]{1,8}$/, 'must be 1 to 8 lower-case letters'));
const validQuery = new ZodValidationPipe(
  z.strictObject({
    at: z
      .string()
      .regex(/^\d{1,3}$/, 'must be a number')
      .transform(Number)
      .optional(),
  }),
);

// The same route twice: through Nest's pipes, and with checked arguments.
@Controller()
class Routes {
  @Get('piped/:id')
  piped(@Param('id', validId) id: string, @Query(validQuery) query: { at?: number }): object {
    return { id, query };
  }

  @Get('checked/:id')
  checked(@CheckedParam('id', validId) id: string, @CheckedQuery(validQuery) query: { at?: number }): object {
    return { id, query };
  }
}

@Module({
  controllers: [Routes],
  providers: [
    { provide: PINO, useValue: pino({ enabled: false }) },
    ErrorAnswers,
    { provide: APP_FILTER, useClass: ProblemDetailsFilter },
  ],
})
class RoutesModule {}

let app: INestApplication;
let baseUrl: string;

beforeAll(async () => {
  app = await NestFactory.create(RoutesModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  baseUrl = await app.getUrl();
});
afterAll(async () => {
  await app.close();
});

async function answer(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}${path}`);
  return { status: response.status, body: await response.json() };
}

describe('@CheckedParam and @CheckedQuery', () => {
  it.each(['/acme', '/acme?at=12', '/Acme', '/acme?at=soon', '/acme?other=1', '/ACME?at=x&y=2'])(
    'answer %s as @Param and @Query with the same pipe do',
    async (path) => {
      const checked = await answer(`/checked${path}`);
      expect(checked).toEqual(await answer(`/piped${path}`));
    },
  );

  it('pass on what the pipe makes of the value', async () => {
    expect(await answer('/checked/acme?at=12')).toEqual({ status: 200, body: { id: 'acme', query: { at: 12 } } });
    expect((await answer('/checked/Acme')).body).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      errors: [{ parameter: 'id' }],
    });
    expect((await answer('/checked/acme?at=soon')).body).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      errors: [{ parameter: 'at' }],
    });
  });

  it('give Nest no pipe to run (its pipe chain is asynchronous), only the value to read', () => {
    const args = Object.values(
      Reflect.getMetadata(ROUTE_ARGS_METADATA, Routes, 'checked') as Record<string, { pipes: unknown[] }>,
    );
    expect(args.map((argument) => argument.pipes)).toEqual([[], []]);
  });
});
