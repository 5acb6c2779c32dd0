import { Module } from '@nestjs/common';
import { ErrorAnswers } from '../http/error-answers.js';
import { OrganizationStreamsModule } from '../organizations/organization-streams.module.js';
import { DirectoryTokensController } from './directory-tokens.controller.js';
import { DirectoryGroups } from './directory-groups.service.js';
import { DirectoryStreams } from './directory-streams.js';
import { DirectoryTokens } from './directory-tokens.service.js';
import { DirectoryUsers } from './directory-users.service.js';
import { answerScimErrors } from './scim-error-answers.js';
import { ScimController } from './scim.controller.js';
import { ScimGroupsController } from './scim-groups.controller.js';
import { ScimUsersController } from './scim-users.controller.js';
import { ScimRequestLog } from './scim-request-log.service.js';
import { ScimTokenGuard } from './scim-token.guard.js';

/** Enterprise directories (docs/directory.md): SCIM tokens and /scim/v2. */
@Module({
  imports: [OrganizationStreamsModule],
  controllers: [DirectoryTokensController, ScimController, ScimUsersController, ScimGroupsController],
  providers: [DirectoryStreams, DirectoryTokens, DirectoryUsers, DirectoryGroups, ScimTokenGuard, ScimRequestLog],
  exports: [DirectoryTokens, DirectoryUsers],
})
export class DirectoryModule {
  constructor(answers: ErrorAnswers) {
    answers.registerProtocol(answerScimErrors);
  }
}
