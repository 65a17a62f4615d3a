/**
 * Funder and partner marks, drawn as simple SVG so the page loads nothing from other sites.
 * They are stylised stand-ins (initials in the institutions' colours), not the official artwork.
 */
export function NsfLogo({ height = 36 }: { height?: number }) {
  return (
    <svg height={height} viewBox="0 0 40 40" role="img" aria-label="U.S. National Science Foundation" xmlns="http://www.w3.org/2000/svg">
      <circle cx="20" cy="20" r="19" fill="#005ea2" stroke="#fff" strokeWidth="1.5" />
      <text x="20" y="25" textAnchor="middle" fontFamily="system-ui, sans-serif" fontSize="13" fontWeight="700" fill="#fff">
        NSF
      </text>
    </svg>
  );
}

export function NoirlabLogo({ height = 40 }: { height?: number }) {
  return (
    <svg height={height} viewBox="0 0 140 40" role="img" aria-label="NSF NOIRLab" xmlns="http://www.w3.org/2000/svg">
      <rect x="1" y="1" width="38" height="38" rx="6" fill="#111" />
      <circle cx="20" cy="20" r="11" fill="none" stroke="#ffb400" strokeWidth="3" />
      <circle cx="20" cy="20" r="4" fill="#ffb400" />
      <text x="46" y="27" fontFamily="system-ui, sans-serif" fontSize="18" fontWeight="700" fill="currentColor">
        NOIRLab
      </text>
    </svg>
  );
}

export function UArizonaLogo({ height = 40 }: { height?: number }) {
  return (
    <svg height={height} viewBox="0 0 150 40" role="img" aria-label="The University of Arizona" xmlns="http://www.w3.org/2000/svg">
      <rect x="1" y="1" width="38" height="38" rx="4" fill="#ab0520" />
      <text x="20" y="28" textAnchor="middle" fontFamily="Georgia, serif" fontSize="22" fontWeight="700" fill="#fff">
        A
      </text>
      <text x="46" y="18" fontFamily="system-ui, sans-serif" fontSize="11" fill="currentColor">
        THE UNIVERSITY
      </text>
      <text x="46" y="32" fontFamily="system-ui, sans-serif" fontSize="11" fontWeight="700" fill="currentColor">
        OF ARIZONA
      </text>
    </svg>
  );
}
