// The log is forever, so an event's shape changes by a new version, never by editing what is stored: an
// upcaster turns version n of a type into n + 1, and every read path runs the chain, so the code sees only
// current shapes. Adding one: apps/api/README.md, Changing an event's shape.

type EventData = Record<string, unknown>;

export type Upcaster = {
  readonly type: string;
  /** The version it reads; it answers version `from + 1`. */
  readonly from: number;
  readonly up: (data: EventData) => EventData;
};

export const UPCASTERS: readonly Upcaster[] = [
  {
    // Resets made before owners needed the person's consent or the organization's answer for the account.
    type: 'SecondFactorsReset',
    from: 1,
    up: ({ authority, ...data }) => ({ ...data, authority: authority ?? 'owner-alone' }),
  },
];

export class EventSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventSchemaError';
  }
}

/** Each type's current version (1 without upcasters) and the chain that brings an older one to it. */
export class EventSchemas {
  private readonly chains = new Map<string, Upcaster[]>();

  constructor(upcasters: readonly Upcaster[]) {
    for (const upcaster of upcasters)
      this.chains.set(upcaster.type, [...(this.chains.get(upcaster.type) ?? []), upcaster]);
    for (const [type, chain] of this.chains) {
      chain.sort((a, b) => a.from - b.from);
      // A gap would leave some stored version with no way to the current one.
      chain.forEach((upcaster, index) => {
        if (upcaster.from !== index + 1)
          throw new EventSchemaError(
            `${type}: upcasters must run from version 1 without gaps (found one from ${upcaster.from})`,
          );
      });
    }
  }

  /** Whether any type has more than one version: without, reads need no version at all. */
  get evolves(): boolean {
    return this.chains.size > 0;
  }

  versionOf(type: string): number {
    return (this.chains.get(type)?.length ?? 0) + 1;
  }

  /**
   * The data in its type's current shape. A version newer than this build knows was written by a newer build:
   * reading it as if current could misread it, so it is refused.
   */
  upcast(type: string, version: number, data: unknown): unknown {
    const chain = this.chains.get(type);
    const current = (chain?.length ?? 0) + 1;
    if (version === current) return data;
    if (!Number.isInteger(version) || version < 1 || version > current) {
      throw new EventSchemaError(
        `${type} version ${String(version)} is not one this build reads (1 to ${current}): was it written by a newer Chorus?`,
      );
    }
    let shaped = data as EventData;
    for (const upcaster of (chain as Upcaster[]).slice(version - 1)) shaped = upcaster.up(shaped);
    return shaped;
  }
}

export const eventSchemas = new EventSchemas(UPCASTERS);
