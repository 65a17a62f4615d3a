import { lazy, Suspense } from 'react';
import Nav from 'react-bootstrap/Nav';
import { NavLink, useLocation } from 'react-router';

import { useSession } from '@/lib/use-session';

const AdminToolsMenu = lazy(() => import('./AccountMenus').then((m) => ({ default: m.AdminToolsMenu })));
const UserMenu = lazy(() => import('./AccountMenus').then((m) => ({ default: m.UserMenu })));

/** Holds a menu's place, with its title, while its code loads. */
function MenuPlaceholder({ title }: { title: string }) {
  return (
    <li className="nav-item">
      <span className="nav-link dropdown-toggle">{title}</span>
    </li>
  );
}

const LINKS: { to: string; label: string }[] = [
  { to: '/loci', label: 'Explore' },
  { to: '/favorite-loci', label: 'Favorites' },
  { to: '/filters', label: 'Filters' },
  { to: '/tags', label: 'Tags' },
  { to: '/watch-lists', label: 'Watch Lists' },
  { to: '/catalogs', label: 'Catalogs' },
  { to: '/gw-events', label: 'GW Events' },
  { to: '/pipeline', label: 'Pipeline' },
  { to: '/properties', label: 'Properties' },
  { to: '/faq', label: 'FAQ' },
  { to: '/team', label: 'Team' },
  { to: '/support', label: 'Support' },
];

export function MainNav() {
  const session = useSession();
  const location = useLocation();
  const redirect = encodeURIComponent(`${location.pathname}${location.search}${location.hash}`);
  const user = session.isAuthenticated ? session.user : null;

  return (
    <>
      <Nav className="me-auto flex-wrap" as="ul">
        {LINKS.map((link) => (
          <Nav.Item as="li" key={link.to}>
            <Nav.Link as={NavLink} to={link.to}>
              {link.label}
            </Nav.Link>
          </Nav.Item>
        ))}
        {user?.admin && (
          <Suspense fallback={<MenuPlaceholder title="Admin Tools" />}>
            <AdminToolsMenu />
          </Suspense>
        )}
      </Nav>
      <Nav as="ul">
        {user ? (
          <Suspense fallback={<MenuPlaceholder title={user.name || user.username} />}>
            <UserMenu name={user.name || user.username} />
          </Suspense>
        ) : (
          <>
            <Nav.Item as="li">
              <Nav.Link as={NavLink} to={`/register?redirect=${redirect}`}>
                Register
              </Nav.Link>
            </Nav.Item>
            <Nav.Item as="li">
              <Nav.Link as={NavLink} to={`/login?redirect=${redirect}`}>
                Login
              </Nav.Link>
            </Nav.Item>
          </>
        )}
      </Nav>
    </>
  );
}
