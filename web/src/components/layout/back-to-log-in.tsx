import { Link } from 'react-router';
import { paths } from '../../config/paths';

export function BackToLogIn() {
  return (
    <p className="back-link">
      <Link to={paths.login.getHref()}>
        <svg className="back-link__icon" viewBox="0 0 16 16" aria-hidden="true">
          <path
            d="M13 8H3.5M7.5 3.5 3 8l4.5 4.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        Back to log in
      </Link>
    </p>
  );
}
