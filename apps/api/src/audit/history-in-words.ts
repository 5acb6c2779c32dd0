// An organization's events in the timeline's words, page after page, as the console, the downloads and the
// command line show them: the organization is folded along, so a removed member or site is named by what it
// was just before, and an API key by its name.
import { evolve, initialOrganizationState, namesIn, type OrganizationState } from '#domain';
import type { RecordedEvent } from '#event-store';
import { asOrganizationEvent } from '../organizations/organizations.service.js';
import type { ActorNameLookup } from './actor-name-lookup.js';
import { namedActorsOf, timelineEntry, type TimelineEntry } from './timeline-entry.js';

/** One reading of one stream, oldest first: every event must be given, in order (those left out of the answer too). */
export class HistoryInWords {
  private state: OrganizationState = initialOrganizationState;

  constructor(
    private readonly actorNames: ActorNameLookup,
    private readonly organizationId: string,
  ) {}

  /** The next events in words; `shown` picks which are answered (every one is folded, for the names). */
  async entries(
    events: readonly RecordedEvent[],
    shown: (event: RecordedEvent) => boolean = () => true,
  ): Promise<TimelineEntry[]> {
    const keyNames = await this.actorNames.namesOf(this.organizationId, namedActorsOf(events));
    const entries: TimelineEntry[] = [];
    for (const event of events) {
      if (shown(event)) entries.push(timelineEntry(event, namesIn(this.state), keyNames));
      this.state = evolve(this.state, asOrganizationEvent(event));
    }
    return entries;
  }
}
