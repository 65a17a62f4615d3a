import Container from 'react-bootstrap/Container';
import Navbar from 'react-bootstrap/Navbar';
import { Link, Outlet, ScrollRestoration, useLoaderData, useNavigation } from 'react-router';

import type { RootLoaderData } from '@/app/root-loader';
import { AntaresLogo } from '@/components/logos/AntaresLogo';
import { NsfLogo } from '@/components/logos/PartnerLogos';
import { AnnouncementBanners } from '@/features/announcements/components/AnnouncementBanners';

import { Footer } from './Footer';
import { LookupBox } from './LookupBox';
import { MainNav } from './MainNav';
import { PageTitle } from './PageTitle';
import { ThemeToggle } from './ThemeToggle';

export function RootLayout() {
  const { announcements } = useLoaderData() as RootLoaderData;
  const navigation = useNavigation();

  return (
    <div className="d-flex flex-column min-vh-100">
      <PageTitle />
      <a href="#main" className="visually-hidden-focusable">
        Skip to content
      </a>
      <AnnouncementBanners announcements={announcements} />
      <header>
        <Navbar bg="dark" data-bs-theme="dark" expand="lg" className="py-2">
          <Container fluid="xxl">
            <Navbar.Brand as={Link} to="/" className="d-flex align-items-center" aria-label="ANTARES home">
              <AntaresLogo />
            </Navbar.Brand>
            <div className="flex-grow-1 me-3">
              <LookupBox />
            </div>
            <ThemeToggle />
            <a href="https://www.nsf.gov" target="_blank" rel="noreferrer" className="me-2" title="U.S. National Science Foundation">
              <NsfLogo />
            </a>
            <Navbar.Toggle aria-controls="main-nav" />
          </Container>
        </Navbar>
        <Navbar bg="body-tertiary" expand="lg" className="border-bottom py-0">
          <Container fluid="xxl">
            <Navbar.Collapse id="main-nav">
              <MainNav />
            </Navbar.Collapse>
          </Container>
        </Navbar>
        <div className={`route-progress ${navigation.state === 'loading' ? 'active' : ''}`} aria-hidden="true" />
      </header>
      <main id="main" className="flex-grow-1 py-4">
        {/* Full width: the locus table has many columns. */}
        <Container fluid className="px-lg-4">
          <Outlet />
        </Container>
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
