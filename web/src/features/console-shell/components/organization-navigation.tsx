import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router';
import type { Membership } from '../../../api/contract';
import { canConfigureSso, canManage, canReadHistory } from '../../../api/roles';
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
    ...(canManage(role) ? [{ name: 'Webhooks', href: paths.console.webhooks.getHref(id) }] : []),
    ...(canManage(role) ? [{ name: 'Directory', href: paths.console.directory.getHref(id) }] : []),
  ];
  const list = useRef<HTMLUListElement>(null);
  const { pathname } = useLocation();

  // On a narrow screen the tabs scroll sideways: the current one is brought into view (its neighbours stay half shown).
  useEffect(() => {
    const element = list.current;
    if (element === null || element.scrollWidth <= element.clientWidth) return;
    const current = element.querySelector<HTMLElement>('[aria-current="page"]');
    if (current === null) return;
    const start = current.getBoundingClientRect().left - element.getBoundingClientRect().left + element.scrollLeft;
    const end = start + current.offsetWidth;
    if (start < element.scrollLeft) element.scrollLeft = Math.max(start - 24, 0);
    else if (end > element.scrollLeft + element.clientWidth) element.scrollLeft = end - element.clientWidth + 24;
  }, [pathname]);

  return (
    <nav className="console-nav" aria-label={organization.name}>
      <ul className="console-nav__list" ref={list}>
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
