import { Module } from '@nestjs/common';
import { ErrorAnswers } from '../http/error-answers.js';
import { OrganizationStreamsModule } from '../organizations/organization-streams.module.js';
import { DirectoryTokensController } from './directory-tokens.controller.js';
import { OrganizationDirectory } from './directory.service.js';
import { answerScimErrors } from './scim-protocol.js';
import { ScimController } from './scim.controller.js';
import { ScimRequestLog } from './scim-request-log.service.js';
import { ScimTokenGuard } from './scim-token.guard.js';

/** Enterprise directories (docs/directory.md): SCIM tokens and /scim/v2. */
@Module({
  imports: [OrganizationStreamsModule],
  controllers: [DirectoryTokensController, ScimController],
  providers: [OrganizationDirectory, ScimTokenGuard, ScimRequestLog],
  exports: [OrganizationDirectory],
})
export class DirectoryModule {
  constructor(answers: ErrorAnswers) {
    answers.registerProtocol(answerScimErrors);
  }
}
