import { Module } from '@nestjs/common';
import { ApiReferenceController } from './api-reference.controller.js';

/** The API's own reference: /docs and /docs/openapi.json, generated from the controllers (openapi-document.ts). */
@Module({ controllers: [ApiReferenceController] })
export class OpenApiModule {}
