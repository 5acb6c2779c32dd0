import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { Config } from '#config';
import type { Logger } from 'pino';
import { AccessModule } from './access/access.module.js';
import { AuditModule } from './audit/audit.module.js';
import { AuthModule } from './auth/auth.module.js';
import { BillingModule } from './billing/billing.module.js';
import { ConfigModule } from './config/config.module.js';
import { DemoModule } from './demo/demo.module.js';
import { DirectoryModule } from './directory/directory.module.js';
import { EntitlementsModule } from './entitlements/entitlements.module.js';
import { EventStoreModule } from './event-store/event-store.module.js';
import { HistoryProofModule } from './history-proof/history-proof.module.js';
import { HttpModule } from './http/http.module.js';
import { LoggingModule } from './logging/logging.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { OpenApiModule } from './openapi/openapi.module.js';
import { OrganizationsModule } from './organizations/organizations.module.js';
import { OwnerMailsModule } from './owner-mails/owner-mails.module.js';
import { PlanCatalogueModule } from './plans/plan-catalogue.module.js';
import { ReadModelsModule } from './read-models/read-models.module.js';
import { PrivacyModule } from './privacy/privacy.module.js';
import { SsoModule } from './sso/sso.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import type { RunMode } from './config/run-mode.js';
import { WebModule } from './web/web.module.js';

export type AppModuleOptions = { runMode: RunMode; logger: Logger };

/** Every module of the service; the server (createApp) and the command line (createCliContext) share it. */
@Module({})
export class AppModule {
  static forRoot(config: Config, { runMode, logger }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, runMode),
        LoggingModule.forRoot(logger),
        EventStoreModule,
        PlanCatalogueModule,
        CqrsModule.forRoot(),
        HttpModule,
        AccessModule,
        OrganizationsModule,
        ReadModelsModule,
        MetricsModule,
        OpenApiModule,
        BillingModule,
        HistoryProofModule,
        AuditModule,
        EntitlementsModule,
        OwnerMailsModule,
        AuthModule,
        SsoModule,
        PrivacyModule,
        WebhooksModule,
        DirectoryModule,
        WebModule,
        DemoModule,
      ],
    };
  }
}
