import { Link } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { LoginPromptButton } from '../../../components/LoginPrompt';
import { useSession } from '../../../lib/use-session';

/** Watch lists. Logged out (or none yet): 'Track Objects of Interest'. */
export function Component() {
  const { isAuthenticated } = useSession();
  return (
    <EmptyState title="Track Objects of Interest">
      <p className="lead">
        Watch lists track survey alerts at sky positions you choose, and can notify a chat channel when a new alert arrives near one of them.
      </p>
      {isAuthenticated ? (
        <Link to="/watch-lists/create" className="btn btn-primary">
          Create your first Watch List
        </Link>
      ) : (
        <LoginPromptButton>Login to create your first Watch List</LoginPromptButton>
      )}
    </EmptyState>
  );
}
