/** The default member photo: a neutral silhouette, drawn inline. */
export function DefaultPhoto() {
  return (
    <svg width={64} height={64} viewBox="0 0 64 64" aria-hidden="true" className="flex-shrink-0" data-testid="default-photo">
      <circle cx="32" cy="32" r="32" fill="#dee2e6" />
      <circle cx="32" cy="25" r="11" fill="#adb5bd" />
      <path d="M12 54c3-11 11-16 20-16s17 5 20 16" fill="#adb5bd" />
    </svg>
  );
}
