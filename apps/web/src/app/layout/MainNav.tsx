import Nav from 'react-bootstrap/Nav';
import NavDropdown from 'react-bootstrap/NavDropdown';
import { NavLink, useLocation } from 'react-router';

import { logout } from '@/lib/session';
import { useSession } from '@/lib/use-session';

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

const ADMIN_LINKS: { to: string; label: string }[] = [
  { to: '/admin/filters', label: 'Filters Management' },
  { to: '/admin/filter_runner', label: 'Filter Runner Management' },
  { to: '/admin/user-management', label: 'User Management' },
  { to: '/admin/announcements', label: 'Announcement Management' },
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
          <NavDropdown as="li" title="Admin Tools" id="admin-tools-menu" data-testid="admin-tools-menu">
            {ADMIN_LINKS.map((link) => (
              <NavDropdown.Item key={link.to} as={NavLink} to={link.to}>
                {link.label}
              </NavDropdown.Item>
            ))}
          </NavDropdown>
        )}
      </Nav>
      <Nav as="ul">
        {user ? (
          <NavDropdown as="li" align="end" title={user.name || user.username} id="user-menu" data-testid="user-menu">
            <NavDropdown.Item as={NavLink} to="/user/settings">
              Settings
            </NavDropdown.Item>
            <NavDropdown.Item as="button" onClick={() => void logout()}>
              Logout
            </NavDropdown.Item>
          </NavDropdown>
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
