import { Link } from 'react-router';
import { useAppDispatch } from '../../../lib/store-hooks';
import type { SessionUser } from '../../../api/contract';
import { useSignOutMutation } from '../../../api/session-api';
import { Disclosure } from '../../../components/ui/disclosure';
import { paths } from '../../../config/paths';
import { leaveTo } from '../../../lib/navigation';

export function UserMenu({ user }: { user: SessionUser }) {
  const dispatch = useAppDispatch();
  const [signOut, { isLoading }] = useSignOutMutation();

  async function leave() {
    // The session may have ended already.
    await signOut().catch(() => undefined);
    dispatch(leaveTo(paths.login.getHref()));
  }

  return (
    <Disclosure
      className="user-menu"
      label="(account menu)"
      button={
        <>
          <span className="avatar" aria-hidden="true">
            {user.email.charAt(0).toUpperCase()}
          </span>
          <span className="user-menu__email">{user.email}</span>
        </>
      }
    >
      {(close) => (
        <ul className="menu">
          <li className="menu__heading">
            <span className="menu__hint">Signed in as</span>
            <span className="menu__email">{user.email}</span>
          </li>
          <li>
            <Link className="menu__item" to={paths.console.account.getHref()} onClick={close}>
              Account
            </Link>
          </li>
          <li>
            <button type="button" className="menu__item" onClick={() => void leave()} disabled={isLoading}>
              Sign out
            </button>
          </li>
        </ul>
      )}
    </Disclosure>
  );
}
