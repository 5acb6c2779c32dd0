import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { z } from 'zod';
import { commandContextOf } from '../http/request-context.js';
import { ProblemError } from '../http/problem-error.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { Operation } from '../openapi/operation.decorator.js';
import { jsonSafe } from '../organizations/command-result.js';
import { organizationIdSchema } from '../organizations/organization-ids.js';
import { actorOf } from '../access/principal.js';
import { EntitlementCallers } from './entitlement-callers.js';
import { UsageReports } from './usage-reports.js';

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

@Controller('usage')
export class UsageController {
  constructor(
    private readonly callers: EntitlementCallers,
    private readonly usage: UsageReports,
  ) {}

  @Post()
  @HttpCode(202)
  @Operation({ summary: 'Traffic reports, counted once each by id, per organization and calendar month; nothing is refused for traffic' })
  async report(@Body(new ZodValidationPipe(usageRequest)) body: z.output<typeof usageRequest>, @Req() request: Request): Promise<object> {
    const principal = await this.callers.authenticate(request, 'usage:write');
    if (principal.kind === 'user') throw new ProblemError(403, 'FORBIDDEN', 'Not allowed', 'Usage is reported with an API key (usage:write).');
    if (principal.kind === 'api-key' && principal.organizationId !== undefined && body.reports.some((report) => report.organizationId !== principal.organizationId)) {
      throw new ProblemError(403, 'FORBIDDEN', 'Not allowed', 'This key reports the usage of its own organization only; nothing was counted.');
    }
    const receipt = await this.usage.report(body.reports, commandContextOf(request, actorOf(principal)));
    return { accepted: receipt.accepted, duplicates: receipt.duplicates, position: receipt.position === undefined ? null : jsonSafe(receipt.position) };
  }
}
