import { Link, useLocation } from 'react-router';

/** A button to the login page carrying the current full path as the redirect. */
export function LoginPromptButton({ children }: { children: React.ReactNode }) {
  const location = useLocation();
  const redirect = encodeURIComponent(`${location.pathname}${location.search}${location.hash}`);
  return (
    <Link to={`/login?redirect=${redirect}`} className="btn btn-primary">
      {children}
    </Link>
  );
}
