import NavDropdown from 'react-bootstrap/NavDropdown';
import { NavLink } from 'react-router';

import { logout } from '@/lib/session';

const ADMIN_LINKS: { to: string; label: string }[] = [
  { to: '/admin/filters', label: 'Filters Management' },
  { to: '/admin/filter_runner', label: 'Filter Runner Management' },
  { to: '/admin/user-management', label: 'User Management' },
  { to: '/admin/announcements', label: 'Announcement Management' },
];

// The navbar's two menus, a chunk of their own (MainNav loads it lazily): only signed-in users see
// them, and the dropdown code (with Popper) would otherwise weigh on every guest's first page.

export function AdminToolsMenu() {
  return (
    <NavDropdown as="li" title="Admin Tools" id="admin-tools-menu" data-testid="admin-tools-menu">
      {ADMIN_LINKS.map((link) => (
        <NavDropdown.Item key={link.to} as={NavLink} to={link.to}>
          {link.label}
        </NavDropdown.Item>
      ))}
    </NavDropdown>
  );
}

export function UserMenu({ name }: { name: string }) {
  return (
    <NavDropdown as="li" align="end" title={name} id="user-menu" data-testid="user-menu">
      <NavDropdown.Item as={NavLink} to="/user/settings">
        Settings
      </NavDropdown.Item>
      <NavDropdown.Item as="button" onClick={() => void logout()}>
        Logout
      </NavDropdown.Item>
    </NavDropdown>
  );
}
