import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { DirectoryModule } from '../directory/directory.module.js';
import { AccountPrivacyController } from './account-privacy.controller.js';
import { PersonalDataErasure } from './personal-data-erasure.js';
import { PersonalDataExport } from './personal-data-export.js';
import { PersonalDataRetention } from './personal-data-retention.js';

/**
 * A person's data: their copy and its erasure, for the person (/account) and operators (`chorus user:export`,
 * `user:erase`); months' keys expiring.
 */
@Module({
  imports: [AuthModule, DirectoryModule],
  controllers: [AccountPrivacyController],
  providers: [PersonalDataErasure, PersonalDataExport, PersonalDataRetention],
  exports: [PersonalDataErasure, PersonalDataExport, PersonalDataRetention],
})
export class PrivacyModule {}
