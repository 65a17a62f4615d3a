import { NoirlabLogo, UArizonaLogo } from '@/components/logos/PartnerLogos';

export function Footer() {
  return (
    <footer className="site-footer border-top mt-5 py-4 bg-body-tertiary">
      <div className="container d-flex flex-wrap gap-4 align-items-center justify-content-between">
        <p className="mb-0 small text-body-secondary">
          ANTARES is an alert broker for time-domain astronomy, developed by NSF NOIRLab and the University of Arizona.
        </p>
        <div className="d-flex gap-4 align-items-center">
          <a href="https://noirlab.edu" target="_blank" rel="noreferrer" className="text-body" title="NSF NOIRLab">
            <NoirlabLogo />
          </a>
          <a href="https://www.arizona.edu" target="_blank" rel="noreferrer" className="text-body" title="The University of Arizona">
            <UArizonaLogo />
          </a>
        </div>
      </div>
    </footer>
  );
}
