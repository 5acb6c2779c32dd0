import { Link } from 'react-router';
import type { Membership } from '../../../api/contract';
import { ROLE_NAMES } from '../../../api/roles';
import { Disclosure } from '../../../components/ui/disclosure';
import { paths } from '../../../config/paths';

export function OrganizationSwitcher({ organizations, current }: { organizations: Membership[]; current: Membership }) {
  if (organizations.length <= 1) {
    return (
      <p className="org-name">
        <span className="org-name__text">{current.name}</span>
      </p>
    );
  }
  return (
    <Disclosure
      className="org-switcher"
      label="(switch organization)"
      button={
        <>
          <span className="org-name__text">{current.name}</span>
          <Chevron />
        </>
      }
    >
      {(close) => (
        <ul className="menu" aria-label="Your organizations">
          {organizations.map((organization) => (
            <li key={organization.id}>
              <Link
                className="menu__item"
                to={paths.console.overview.getHref(organization.id)}
                aria-current={organization.id === current.id ? 'true' : undefined}
                onClick={close}
              >
                <span>{organization.name}</span>
                <span className="menu__hint">{ROLE_NAMES[organization.role]}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Disclosure>
  );
}

function Chevron() {
  return (
    <svg className="chevron" viewBox="0 0 20 20" aria-hidden="true">
      <path
        d="M5.5 7.75 10 12.25l4.5-4.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
