import { Link } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { LoginPromptButton } from '../../../components/LoginPrompt';
import { useSession } from '../../../lib/use-session';

/** Filters. Not signed in (or no filters): 'Find Objects of Interest'. */
export function Component() {
  const { isAuthenticated } = useSession();
  return (
    <EmptyState title="Find Objects of Interest">
      <p className="lead">
        Filters help you sift through the stream of survey alerts: write Python code that selects or tags the loci you care about, and ANTARES runs
        it on every new alert.
      </p>
      {isAuthenticated ? (
        <Link to="/filters/create" className="btn btn-primary">
          Create your first Filter
        </Link>
      ) : (
        <LoginPromptButton>Login to create your first Filter</LoginPromptButton>
      )}
    </EmptyState>
  );
}
