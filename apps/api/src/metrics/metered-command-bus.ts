import { Injectable } from '@nestjs/common';
import { CommandBus, type ICommand } from '@nestjs/cqrs';
import { toProblem } from '../http/problem.js';
import { ChorusMetrics } from './chorus-metrics.js';

/** The command's type: the domain command's own (`AssignPlan`) for ChangeOrganizationCommand, else its class's. */
export function commandTypeOf(command: ICommand): string {
  const change = (command as { change?: { type?: unknown } }).change;
  if (typeof change?.type === 'string') return change.type;
  return command.constructor.name.replace(/Command$/, '');
}

/** The CommandBus the routes send commands through, counting each into `chorus_commands_total` by type and outcome. */
@Injectable()
export class MeteredCommandBus {
  readonly execute: CommandBus['execute'];

  constructor(bus: CommandBus, metrics: ChorusMetrics) {
    const counted = async (command: ICommand): Promise<unknown> => {
      const type = commandTypeOf(command);
      try {
        const result: unknown = await bus.execute(command);
        metrics.commands.inc({ command: type, outcome: 'accepted', code: '' });
        return result;
      } catch (error) {
        const problem = toProblem(error);
        metrics.commands.inc({ command: type, outcome: problem.unexpected ? 'failed' : 'refused', code: problem.document.code });
        throw error;
      }
    };
    this.execute = counted as CommandBus['execute'];
  }
}
