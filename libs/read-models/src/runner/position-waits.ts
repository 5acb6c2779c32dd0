// Read-your-writes: a read waits until the model has applied a given global position.
export type Progress = {
  /** Lowest checkpoint across the projections that serve reads. */
  reached: bigint | undefined;
  stopped: boolean;
};

type Waiter = { position: bigint; resolve: (reached: boolean) => void; timer: NodeJS.Timeout };

export class PositionWaits {
  private readonly waiters = new Set<Waiter>();
  private poll: NodeJS.Timeout | undefined;

  /** @param pollMs set when the projector runs in another process: no notification arrives (PROJECTIONS=off). */
  constructor(
    private readonly progress: () => Progress,
    private readonly pollMs: () => number | undefined = () => undefined,
  ) {}

  wait(position: bigint, timeoutMs: number): Promise<boolean> {
    const now = this.progress();
    if (reaches(now, position)) return Promise.resolve(true);
    if (now.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve,
        timer: setTimeout(() => this.settle(waiter, false), timeoutMs),
      };
      this.waiters.add(waiter);
      this.startPolling();
    });
  }

  check(): void {
    if (this.waiters.size === 0) return;
    const now = this.progress();
    for (const waiter of this.waiters) {
      if (reaches(now, waiter.position)) this.settle(waiter, true);
      else if (now.stopped) this.settle(waiter, false);
    }
  }

  cancelAll(): void {
    for (const waiter of this.waiters) this.settle(waiter, false);
  }

  private settle(waiter: Waiter, reached: boolean): void {
    clearTimeout(waiter.timer);
    this.waiters.delete(waiter);
    if (this.waiters.size === 0) this.stopPolling();
    waiter.resolve(reached);
  }

  private startPolling(): void {
    const interval = this.pollMs();
    if (interval === undefined || this.poll !== undefined) return;
    this.poll = setInterval(() => this.check(), interval);
    this.poll.unref();
  }

  private stopPolling(): void {
    clearInterval(this.poll);
    this.poll = undefined;
  }
}

function reaches(progress: Progress, position: bigint): boolean {
  return progress.reached !== undefined && progress.reached >= position;
}
