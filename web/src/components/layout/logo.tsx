import { Link } from 'react-router';
import { paths } from '../../config/paths';

export function Logo({ productName, to = paths.home.getHref() }: { productName: string; to?: string }) {
  return (
    <Link className="logo" to={to}>
      <svg className="logo__mark" viewBox="0 0 36 36" aria-hidden="true">
        <rect width="36" height="36" rx="10" fill="#4f46e5" />
        <path
          d="M11 9.5h14a4 4 0 0 1 4 4v8a4 4 0 0 1-4 4h-7.2l-5.3 3.9v-3.9H11a4 4 0 0 1-4-4v-8a4 4 0 0 1 4-4z"
          fill="#fff"
        />
        <path d="M13.5 15.5v4M18 13v9M22.5 15.5v4" stroke="#4f46e5" strokeWidth="2.2" strokeLinecap="round" />
      </svg>
      <span className="logo__name">{productName}</span>
    </Link>
  );
}
