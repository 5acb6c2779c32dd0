import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { CommandBus, type ICommand } from '@nestjs/cqrs';
import { CONFIG, type Config } from '#config';
import { EVENT_STORE, WrongExpectedRevisionError, type EventStore } from '#event-store';
import { toProblem } from '../http/problem.js';
import { ChorusMetrics } from './chorus-metrics.js';

/** The command's type: the domain command's own (`AssignPlan`) for ChangeOrganizationCommand, else its class's. */
export function commandTypeOf(command: ICommand): string {
  const change = (command as { change?: { type?: unknown } }).change;
  if (typeof change?.type === 'string') return change.type;
  return command.constructor.name.replace(/Command$/, '');
}

/**
 * Times every append and counts every command at the two doors they all go through (the store's
 * append and the CommandBus), so that no handler has to remember to.
 */
@Injectable()
export class MetricsInstrumentation implements OnModuleInit {
  constructor(
    private readonly metrics: ChorusMetrics,
    private readonly commandBus: CommandBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onModuleInit(): void {
    this.timeAppends();
    this.countCommands();
  }

  private timeAppends(): void {
    const { store, metrics } = this;
    const storeName = this.config.eventStoreConnectionString === undefined ? 'sqlite' : 'eventstoredb';
    const append = store.append.bind(store);
    // The label sets are made once; each append is timed with one clock read at each end and observed
    // directly, in the append's own `then` (no timer closures, no async wrapper and its awaits).
    const labels = {
      ok: { store: storeName, outcome: 'ok' },
      conflict: { store: storeName, outcome: 'conflict' },
      error: { store: storeName, outcome: 'error' },
    } as const;
    const observe = (outcome: keyof typeof labels, startedAt: bigint) =>
      metrics.appendDuration.observe(labels[outcome], Number(process.hrtime.bigint() - startedAt) / 1e9);
    const outcomeOf = (error: unknown) => (error instanceof WrongExpectedRevisionError ? 'conflict' : 'error');
    store.append = (...args) => {
      const startedAt = process.hrtime.bigint();
      let appended: ReturnType<EventStore['append']>;
      try {
        appended = append(...args);
      } catch (error) {
        // A store that throws instead of rejecting: still timed, and still a rejection for the caller.
        observe(outcomeOf(error), startedAt);
        return Promise.reject(error as Error);
      }
      return appended.then(
        (result) => {
          observe('ok', startedAt);
          return result;
        },
        (error: unknown) => {
          observe(outcomeOf(error), startedAt);
          throw error;
        },
      );
    };
  }

  private countCommands(): void {
    const { commandBus, metrics } = this;
    const execute = commandBus.execute.bind(commandBus) as (command: ICommand, ...rest: unknown[]) => Promise<unknown>;
    const counted = async (command: ICommand, ...rest: unknown[]): Promise<unknown> => {
      const type = commandTypeOf(command);
      try {
        const result = await execute(command, ...rest);
        metrics.commands.inc({ command: type, outcome: 'accepted', code: '' });
        return result;
      } catch (error) {
        const problem = toProblem(error);
        metrics.commands.inc({ command: type, outcome: problem.unexpected ? 'failed' : 'refused', code: problem.document.code });
        throw error;
      }
    };
    commandBus.execute = counted as CommandBus['execute'];
  }
}
