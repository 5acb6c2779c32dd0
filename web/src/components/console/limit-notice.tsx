import type { LimitedResource, Organization } from '../../api/contract';
import { limitReachedText, whatRaisesIt } from '../../api/limits';
import { Notice } from '../ui/notice';

/**
 * Said before anyone types (docs/console.md, Members): the limit is reached, and what raises it; or there
 * is no plan yet. Nothing while one more fits.
 */
export function LimitNotice({ organization, resource, refused = false }: { organization: Organization; resource: LimitedResource; refused?: boolean }) {
  // Once the server has refused for this very reason, its words next to the form say it: no need twice.
  if (organization.canAdd[resource] || refused) return null;
  if (organization.governingPlan === null) {
    return (
      <Notice tone="warning">
        <p className="notice__title">No plan yet</p>
        <p>{organization.name} has no plan, so nothing can be added until one is chosen.</p>
      </Notice>
    );
  }
  return (
    <Notice tone="warning">
      <p className="notice__title">{limitReachedText(organization, resource)}</p>
      <p>{whatRaisesIt(organization, resource)}</p>
    </Notice>
  );
}
