import { Link } from 'react-router';

import { FilterEnvironmentList } from './FilterEnvironmentList';

/** /filters/environment: what a filter can import here, for authors to read before they submit one. */
export function Component() {
  return (
    <section>
      <h1 className="h3 mb-3">Filter Environment</h1>
      <p>
        What a filter submitted to this server can import when it runs, read from the sandbox itself. To ask for a package that is not
        listed, contact the operators (see the <Link to="/faq">FAQ</Link>).
      </p>
      <FilterEnvironmentList expanded />
    </section>
  );
}
