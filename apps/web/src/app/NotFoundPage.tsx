import { Link } from 'react-router';

export function Component() {
  return (
    <section className="py-5 text-center">
      <h1 className="h3">Page Not Found</h1>
      <p className="text-body-secondary">There is no page at this address.</p>
      <Link to="/loci">Explore loci</Link>
    </section>
  );
}
