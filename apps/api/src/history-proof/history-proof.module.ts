import { Module } from '@nestjs/common';
import { CheckpointSchedule } from './checkpoint-schedule.js';
import { HistoryCheckpoints } from './history-checkpoints.js';
import { HistoryProofController } from './history-proof.controller.js';

/** Signed checkpoints of the chained log, and the routes that show them (docs/history.md). */
@Module({
  controllers: [HistoryProofController],
  providers: [HistoryCheckpoints, CheckpointSchedule],
  exports: [HistoryCheckpoints],
})
export class HistoryProofModule {}
