import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Logo } from '../../../components/layout/logo';
import type { Membership, SessionUser } from '../../../api/contract';
import { paths } from '../../../config/paths';
import { OrganizationNavigation } from './organization-navigation';
import { OrganizationSwitcher } from './organization-switcher';
import { UserMenu } from './user-menu';

type ConsoleLayoutProps = {
  productName: string;
  user: SessionUser;
  organizations: Membership[];
  /** The account page shows the one last seen. */
  current: Membership | undefined;
  navigation?: boolean;
  children: ReactNode;
};

export function ConsoleLayout({
  productName,
  user,
  organizations,
  current,
  navigation = true,
  children,
}: ConsoleLayoutProps) {
  const main = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const firstPage = useRef(true);

  // Reading and tabbing start at the new page's top: focus alone would scroll the title under the sticky header.
  useEffect(() => {
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    main.current?.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  }, [pathname]);

  return (
    <div className="console">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="console-header">
        <div className="console-header__bar">
          <Logo productName={productName} to={paths.console.getHref()} />
          {current !== undefined && <OrganizationSwitcher organizations={organizations} current={current} />}
          <UserMenu user={user} />
        </div>
        {navigation && current !== undefined && <OrganizationNavigation organization={current} />}
      </header>
      <main className="console-main" id="main" tabIndex={-1} ref={main}>
        {children}
      </main>
    </div>
  );
}
