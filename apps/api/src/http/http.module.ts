import { Global, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ErrorAnswers } from './error-answers.js';
import { ProblemDetailsFilter } from './problem-details.filter.js';

/**
 * The global problem+json exception filter, and where features register their own error answers (the request pipeline
 * itself is set up in createApp).
 */
@Global()
@Module({ providers: [ErrorAnswers, { provide: APP_FILTER, useClass: ProblemDetailsFilter }], exports: [ErrorAnswers] })
export class HttpModule {}
