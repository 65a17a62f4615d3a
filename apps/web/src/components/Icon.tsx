/**
 * Small inline icons (paths drawn on a 16x16 grid); decorative unless given a title. This module holds
 * the base and the icons of the app shell (every route loads it); the pages' icons are in Icons.tsx.
 */
export interface IconProps {
  title?: string;
  size?: number;
  className?: string;
}

export function Icon({ title, size = 16, className, children }: IconProps & { children: React.ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="currentColor"
      className={className}
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
      xmlns="http://www.w3.org/2000/svg"
    >
      {children}
    </svg>
  );
}

export const SearchIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="6.8" cy="6.8" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
    <path d="M10.2 10.2l4 4" stroke="currentColor" strokeWidth="1.8" />
  </Icon>
);

export const SunIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="8" cy="8" r="3.2" />
    <path
      d="M8 0v2.5M8 13.5V16M0 8h2.5M13.5 8H16M2.3 2.3l1.8 1.8M11.9 11.9l1.8 1.8M2.3 13.7l1.8-1.8M11.9 4.1l1.8-1.8"
      stroke="currentColor"
      strokeWidth="1.4"
    />
  </Icon>
);

export const MoonIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M6 .3a7 7 0 1 0 9.7 9.7A6 6 0 0 1 6 .3z" />
  </Icon>
);
