import { Global, Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module.js';
import { ConfigureSsoHandler } from './configure-sso.handler.js';
import { SsoDomainClaims } from './sso-domain-claims.js';
import { SsoEnforcement } from './sso-enforcement.js';
import { SsoSignOnController } from './sso-sign-on.controller.js';
import { SsoSignOn } from './sso-sign-on.js';
import { SsoController } from './sso.controller.js';

/**
 * Enterprise single sign-on per organization: its configuration (PUT/DELETE
 * /organizations/:id/sso), the sign-on (/auth/sso...), and SsoEnforcement, global, for password sign-in and reset.
 */
@Global()
@Module({
  imports: [OrganizationsModule],
  controllers: [SsoController, SsoSignOnController],
  providers: [ConfigureSsoHandler, SsoDomainClaims, SsoSignOn, SsoEnforcement],
  exports: [SsoEnforcement],
})
export class SsoModule {}
