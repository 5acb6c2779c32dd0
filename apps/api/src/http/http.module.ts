import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ProblemDetailsFilter } from './problem-details.filter.js';

/** The global problem+json exception filter (the request pipeline itself is set up in createApp). */
@Module({ providers: [{ provide: APP_FILTER, useClass: ProblemDetailsFilter }] })
export class HttpModule {}
