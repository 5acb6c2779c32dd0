import { Module } from '@nestjs/common';
import { DemoSeed } from './demo-seed.service.js';

/** The first-run demo organization and owner (SEED_DEMO). */
@Module({ providers: [DemoSeed] })
export class DemoModule {}
