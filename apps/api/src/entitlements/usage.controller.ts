import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { actorOf, type Principal } from '../access/principal.js';
import { commandContextOf } from '../http/request-context.js';
import { ProblemError } from '../http/problem-error.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { Credentials, Operation } from '../http/operation.decorator.js';
import { jsonSafe } from '../http/json-safe.js';
import { organizationIdSchema } from '../http/organization-ids.js';
import { EntitlementCallers } from './entitlement-callers.js';
import { UsageReports, type RejectedReport } from './usage-reports.js';
import { usageAnswer } from './entitlement-responses.js';

/** Reports a call may carry. */
export const MAX_USAGE_REPORTS = 1_000;

const usageRequest = z.strictObject({
  reports: z
    .array(
      z.strictObject({
        // Part of what makes a report once-only: a safe alphabet, as event ids are.
        id: z.string().regex(/^[A-Za-z0-9_.:-]{1,200}$/, 'must be 1-200 letters, digits, _ . : or -'),
        organizationId: organizationIdSchema,
        quantity: z.int().min(0).max(1_000_000_000),
        occurredAt: z.iso.datetime({ offset: true }),
        siteId: z.string().min(1).max(200).optional(),
      }),
    )
    .min(1)
    .max(MAX_USAGE_REPORTS),
});

/** The caller of POST /usage, known before its body (up to 1 MiB) is read: mountUsageCallers. */
const callers = new WeakMap<Request, Principal>();

/**
 * Authenticates POST /usage before anything reads its body: a caller without a key with usage:write is refused
 * (401/403) having cost one header's check, not the parsing and validation of a megabyte. Mounted before the
 * JSON body readers (create-app.ts).
 */
export function mountUsageCallers(app: NestExpressApplication): void {
  const entitlementCallers = app.get(EntitlementCallers);
  app.use('/usage', (request: Request, _response: Response, next: NextFunction) => {
    if (request.method !== 'POST' || request.path !== '/') {
      next();
      return;
    }
    entitlementCallers
      .authenticate(request, 'usage:write')
      .then((principal) => {
        if (principal.kind === 'user')
          throw new ProblemError(403, 'FORBIDDEN', 'Not allowed', 'Usage is reported with an API key (usage:write).');
        callers.set(request, principal);
        next();
      })
      .catch(next);
  });
}

@Controller('usage')
export class UsageController {
  constructor(
    private readonly callers: EntitlementCallers,
    private readonly usage: UsageReports,
  ) {}

  @Credentials({ apiKey: 'usage:write' })
  @Post()
  @HttpCode(202)
  @Operation({
    summary:
      'Traffic reports of this month and the last, counted once each by id per organization; nothing is refused for traffic',
    answer: usageAnswer,
    responses: {
      202: '{accepted, duplicates, rejected: [{index, id, status, code, detail}], position}: each report counted, a repeat, or rejected',
      400: "OCCURRED_AT_OUT_OF_RANGE when no report was counted and the first rejected was out of range (the problem carries the answer's members); VALIDATION_FAILED",
      401: 'UNAUTHENTICATED: no or an unknown API key',
      403: 'FORBIDDEN: not an API key with usage:write, or a report of another organization',
      409: 'REPORT_ID_REUSED when no report was counted and the first rejected reused an id',
    },
  })
  async report(
    @Body(new ZodValidationPipe(usageRequest)) body: z.output<typeof usageRequest>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<object> {
    response.setHeader('Cache-Control', 'no-store');
    const principal = callers.get(request) ?? (await this.callers.authenticate(request, 'usage:write'));
    if (
      principal.kind === 'api-key' &&
      principal.organizationId !== undefined &&
      body.reports.some((report) => report.organizationId !== principal.organizationId)
    ) {
      throw new ProblemError(
        403,
        'FORBIDDEN',
        'Not allowed',
        'This key reports the usage of its own organization only; nothing was counted.',
      );
    }
    const receipt = await this.usage.report(body.reports, commandContextOf(request, actorOf(principal)));
    const { accepted, duplicates, rejected } = receipt;
    const answer: Record<string, unknown> = {
      accepted,
      duplicates,
      rejected,
      position: receipt.position === undefined ? null : jsonSafe(receipt.position),
    };
    if (receipt.accepted === 0 && receipt.duplicates === 0) throw refusedWhole(receipt.rejected, answer);
    return answer;
  }
}

/** Every report was rejected: the call is answered as the first of them was, with every rejection listed. */
function refusedWhole(rejected: readonly RejectedReport[], answer: Record<string, unknown>): ProblemError {
  const first = rejected[0] as RejectedReport;
  const title =
    first.code === 'OCCURRED_AT_OUT_OF_RANGE'
      ? 'A report is not of this month or the last'
      : 'A report id was used for another report';
  return new ProblemError(first.status, first.code, title, `${first.detail} Nothing was counted.`, answer);
}
