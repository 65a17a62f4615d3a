/** The product mark: a red star with an orbit, plus the word mark. Drawn here so nothing is fetched. */
export function AntaresLogo({ height = 32 }: { height?: number }) {
  return (
    <svg height={height} viewBox="0 0 150 32" role="img" aria-label="ANTARES" xmlns="http://www.w3.org/2000/svg">
      <circle cx="16" cy="16" r="15" fill="#0b1f3a" />
      <ellipse cx="16" cy="16" rx="13" ry="5" fill="none" stroke="#f3a712" strokeWidth="1.5" transform="rotate(-25 16 16)" />
      <circle cx="16" cy="16" r="6" fill="#e4572e" />
      <text x="38" y="23" fontFamily="system-ui, sans-serif" fontSize="20" fontWeight="700" letterSpacing="2" fill="currentColor">
        ANTARES
      </text>
    </svg>
  );
}
