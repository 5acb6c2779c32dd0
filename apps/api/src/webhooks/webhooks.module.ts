import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module.js';
import { WebhookDeliveries } from './webhook-deliveries.service.js';
import { WebhookEndpoints } from './webhook-endpoints.service.js';
import { WebhookSource } from './webhook-source.js';
import { WebhooksController } from './webhooks.controller.js';

/** The organization's history pushed to its own systems: signed webhooks (docs/webhooks.md). */
@Module({
  imports: [OrganizationsModule],
  controllers: [WebhooksController],
  providers: [WebhookSource, WebhookEndpoints, WebhookDeliveries],
})
export class WebhooksModule {}
