// SCIM 2.0 (RFC 7643/7644) at /scim/v2, what a provider reads of Chorus's SCIM service first (docs/directory.md). Bodies are
// read raw, without a pipe: SCIM's own refusals (scim-error-answers.ts) answer in its error schema.
import { Controller, Get, Header, Inject, Param, UseGuards } from '@nestjs/common';
import { CONFIG, type Config } from '#config';
import { Operation } from '../http/operation.decorator.js';
import {
  groupResourceType,
  groupSchema,
  listOf,
  serviceProviderConfig,
  userResourceType,
  userSchema,
} from './scim-discovery.js';
import { GROUP_SCHEMA } from './scim-groups.js';
import { SCIM_MEDIA_TYPE, SCIM_PATH, ScimError, USER_SCHEMA } from './scim-messages.js';
import { ScimTokenGuard } from './scim-token.guard.js';

import { list, resource, scim, SCIM_REFUSALS } from './scim-operations.js';

@Controller(SCIM_PATH.slice(1))
@UseGuards(ScimTokenGuard)
export class ScimController {
  constructor(@Inject(CONFIG) private readonly config: Config) {}

  @Get('ServiceProviderConfig')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({ summary: 'SCIM: what this service provider supports', answer: scim(resource), responses: SCIM_REFUSALS })
  providerConfig(): Record<string, unknown> {
    return serviceProviderConfig(this.config.publicUrl);
  }

  @Get('ResourceTypes')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({ summary: 'SCIM: the resource types (User)', answer: scim(list), responses: SCIM_REFUSALS })
  resourceTypes(): Record<string, unknown> {
    return listOf([userResourceType(this.config.publicUrl), groupResourceType(this.config.publicUrl)]);
  }

  @Get('ResourceTypes/:name')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({ summary: 'SCIM: one resource type', answer: scim(resource), responses: SCIM_REFUSALS })
  resourceType(@Param('name') name: string): Record<string, unknown> {
    if (name === 'Group') return groupResourceType(this.config.publicUrl);
    if (name !== 'User') throw new ScimError(404, `No resource type ${name}.`);
    return userResourceType(this.config.publicUrl);
  }

  @Get('Schemas')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({
    summary: 'SCIM: the schemas, with the attributes Chorus keeps',
    answer: scim(list),
    responses: SCIM_REFUSALS,
  })
  schemas(): Record<string, unknown> {
    return listOf([userSchema(this.config.publicUrl), groupSchema(this.config.publicUrl)]);
  }

  @Get('Schemas/:id')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({ summary: 'SCIM: one schema', answer: scim(resource), responses: SCIM_REFUSALS })
  schema(@Param('id') id: string): Record<string, unknown> {
    if (id === GROUP_SCHEMA) return groupSchema(this.config.publicUrl);
    if (id !== USER_SCHEMA) throw new ScimError(404, `No schema ${id}.`);
    return userSchema(this.config.publicUrl);
  }
}
