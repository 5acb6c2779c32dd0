// What the invitation reaction records (a mail claimed, mailed, refused) is appended together for the invitations
// handled at about the same time: one commit for many people's records, where each would otherwise sync on its own.
// The mail waits for its claim to be durable, and an invitation is done once its record is: nothing is acknowledged
// before it is written.
import {
  handleDecision,
  type AppliedChange,
  type CommandContext,
  type HandledCommand,
  type LoadedStream,
  type StreamChange,
} from '#application';
import { invitationDecider, invitationStream, type InvitationCommand, type InvitationState } from '#domain';
import type { EventStore } from '#event-store';

/** How long a record waits for others to share its commit: invitations go out in the background. */
export const RECORD_WINDOW_MS = 50;
/** Records appended together at most; more start the next commit at once. */
export const RECORDS_AT_ONCE = 64;

type Pending = {
  userId: string;
  command: InvitationCommand;
  context: CommandContext;
  known: Omit<LoadedStream<InvitationState>, 'recorded'> | undefined;
  resolve: (handled: HandledCommand<InvitationState>) => void;
  reject: (error: unknown) => void;
};

type Decided = { pending: Pending; stream: LoadedStream<InvitationState>; change?: StreamChange; error?: unknown };

export class InvitationRecords {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly windowMs = RECORD_WINDOW_MS,
  ) {}

  /** The command decided on the person's invitations (first on `known`, if given) and appended with others'. */
  record(
    userId: string,
    command: InvitationCommand,
    context: CommandContext,
    known?: Omit<LoadedStream<InvitationState>, 'recorded'>,
  ): Promise<HandledCommand<InvitationState>> {
    return new Promise((resolve, reject) => {
      this.queue.push({ userId, command, context, known, resolve, reject });
      if (this.queue.length >= RECORDS_AT_ONCE) this.flushNow();
      else this.timer ??= setTimeout(() => this.flushNow(), this.windowMs);
    });
  }

  private flushNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    // One record per person in a commit (a stream appears once in an append); a second waits for the next.
    const people = new Set<string>();
    const batch: Pending[] = [];
    const later: Pending[] = [];
    for (const pending of this.queue) {
      if (people.has(pending.userId) || batch.length >= RECORDS_AT_ONCE) later.push(pending);
      else {
        people.add(pending.userId);
        batch.push(pending);
      }
    }
    this.queue = later;
    if (later.length > 0) this.timer = setTimeout(() => this.flushNow(), 0);
    if (batch.length > 0) void this.appendTogether(batch);
  }

  private async appendTogether(batch: readonly Pending[]): Promise<void> {
    try {
      const { result, applied } = await handleDecision(
        this.store,
        (batch[0] as Pending).context,
        { serializedOn: 'invitation-records', commandType: 'RecordInvitations' },
        async (reads) => {
          const decided: Decided[] = [];
          for (const pending of batch) {
            const stream = await reads.stream(invitationDecider, pending.userId, { known: pending.known });
            try {
              decided.push({ pending, stream, change: stream.decide(pending.command, { context: pending.context }) });
            } catch (error) {
              // A refusal is its caller's alone: the others are recorded.
              decided.push({ pending, stream, error });
            }
          }
          return { changes: decided.map(({ change }) => change), result: decided };
        },
      );
      const byStream = new Map(applied.map((change) => [change.streamId, change]));
      for (const { pending, stream, error } of result) {
        if (error !== undefined) {
          pending.reject(error);
          continue;
        }
        const change = byStream.get(invitationStream(pending.userId)) as AppliedChange<InvitationState> | undefined;
        pending.resolve(
          change === undefined
            ? { ...stream, appended: [] }
            : { ...change, recorded: stream.recorded, appended: change.appended },
        );
      }
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }
}
