import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { Response } from 'express';
import { CONFIG, type Config } from '#config';
import { apiReferencePage, apiReferenceStyles } from './api-reference-page.js';
import { openApiDocument, type OpenApiDocument } from './openapi-document.js';
import { Credentials, Operation, textAnswer } from '../http/operation.decorator.js';
import { WEBHOOK_PAYLOADS } from '../webhooks/webhook-payloads.js';
import { z } from 'zod';

/** GET /docs (the page), /docs/openapi.json (the document) and the page's stylesheet. Public: the API is no secret. */
@Credentials('none')
@Controller('docs')
export class ApiReferenceController {
  private document: OpenApiDocument | undefined;

  constructor(
    private readonly modules: ModulesContainer,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /**
   * Built at the first request, once every module's routes are known, and kept: routes do not change after start-up.
   */
  private openApi(): OpenApiDocument {
    this.document ??= openApiDocument(
      this.modules,
      { productName: this.config.productName, version: this.config.releaseId, publicUrl: this.config.publicUrl },
      WEBHOOK_PAYLOADS,
    );
    return this.document;
  }

  @Get()
  @Operation({ summary: 'This API, as a page for people', answer: textAnswer('text/html') })
  page(@Res({ passthrough: true }) response: Response): string {
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    return apiReferencePage(this.openApi());
  }

  @Get('openapi.json')
  @Operation({
    summary: 'This API, as an OpenAPI 3.1 document',
    answer: z.looseObject({
      openapi: z.literal('3.1.0'),
      info: z.looseObject({}),
      paths: z.looseObject({}),
      webhooks: z.looseObject({}),
    }),
  })
  json(): OpenApiDocument {
    return this.openApi();
  }

  @Get('docs.css')
  @Operation({ summary: "The reference page's stylesheet", answer: textAnswer('text/css') })
  styles(@Res({ passthrough: true }) response: Response): string {
    response.setHeader('Content-Type', 'text/css; charset=utf-8').setHeader('Cache-Control', 'public, max-age=3600');
    return apiReferenceStyles;
  }
}
