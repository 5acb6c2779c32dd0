import type { Organization, Role } from '../../api/contract';
import { wayForward, type Goal } from '../../api/way-forward';
import { selectSupportEmail, selectUpgradeUrl } from '../../config/page-config-slice';
import { useAppSelector } from '../../lib/store-hooks';

/** The next step after a refusal: a link for owners, whom to ask for everyone else. */
export function WayForward({ goal, role, organization }: { goal: Goal; role: Role; organization: Organization }) {
  const upgradeUrl = useAppSelector(selectUpgradeUrl);
  const supportEmail = useAppSelector(selectSupportEmail);
  const step = wayForward(goal, role, organization, { upgradeUrl, supportEmail });
  if (step === null) return null;
  const { before, link, after } = step;
  return (
    <p className="way-forward">
      {before}
      {link !== undefined && (
        <a className={before === '' ? 'way-forward__action' : undefined} href={link.href}>
          {link.label}
        </a>
      )}
      {after}
    </p>
  );
}
