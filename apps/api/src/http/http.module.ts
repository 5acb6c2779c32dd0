import { Global, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { commonRefusals } from './common-refusal-answers.js';
import { ErrorAnswers } from './error-answers.js';
import { ProblemDetailsFilter } from './problem-details.filter.js';

/**
 * The global problem+json exception filter, and where features register their own error answers (ErrorAnswers); the
 * refusals common to every feature are registered here. The request pipeline itself is set up in createApp.
 */
@Global()
@Module({ providers: [ErrorAnswers, { provide: APP_FILTER, useClass: ProblemDetailsFilter }], exports: [ErrorAnswers] })
export class HttpModule {
  constructor(answers: ErrorAnswers) {
    answers.registerRefusals(commonRefusals);
  }
}
