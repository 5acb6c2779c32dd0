import { NavLink } from 'react-router';
import type { Membership } from '../../../api/contract';
import { canConfigureSso, canReadHistory } from '../../../api/roles';
import { paths } from '../../../config/paths';

export function OrganizationNavigation({ organization }: { organization: Membership }) {
  const { id, role } = organization;
  const links = [
    { name: 'Overview', href: paths.console.overview.getHref(id), end: true },
    { name: 'Members', href: paths.console.members.getHref(id) },
    { name: 'Sites', href: paths.console.sites.getHref(id) },
    { name: 'Domains', href: paths.console.domains.getHref(id) },
    ...(canConfigureSso(role) ? [{ name: 'SSO', href: paths.console.sso.getHref(id) }] : []),
    ...(canReadHistory(role) ? [{ name: 'History', href: paths.console.history.getHref(id) }] : []),
  ];
  return (
    <nav className="console-nav" aria-label={organization.name}>
      <ul className="console-nav__list">
        {links.map((link) => (
          <li key={link.name}>
            <NavLink className="console-nav__link" to={link.href} end={link.end ?? false}>
              {link.name}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
