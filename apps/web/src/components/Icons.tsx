/** The pages' icons, drawn with the shell's base (Icon.tsx), so they stay out of the shell's chunk. */
import { Icon, type IconProps } from './Icon';

export { SearchIcon } from './Icon';

export const StarIcon = ({ filled, ...props }: IconProps & { filled?: boolean }) => (
  <Icon {...props}>
    <path
      d="M8 1.2l2.1 4.3 4.7.7-3.4 3.3.8 4.7L8 12l-4.2 2.2.8-4.7L1.2 6.2l4.7-.7z"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinejoin="round"
    />
  </Icon>
);

export const EllipsisIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="3" cy="8" r="1.5" />
    <circle cx="8" cy="8" r="1.5" />
    <circle cx="13" cy="8" r="1.5" />
  </Icon>
);

export const ExternalIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M9 2h5v5h-1.5V4.6L7.3 9.8 6.2 8.7l5.2-5.2H9z" />
    <path d="M3 4h4v1.5H4.5v6h6V9H12v4H3z" />
  </Icon>
);

export const EnvelopeIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M1.5 3.5h13v9h-13z" fill="none" stroke="currentColor" strokeWidth="1.2" />
    <path d="M1.5 3.5L8 9l6.5-5.5" fill="none" stroke="currentColor" strokeWidth="1.2" />
  </Icon>
);

export const EyeIcon = (props: IconProps) => (
  <Icon {...props}>
    <path
      d="M8 3.5C4.5 3.5 2 6.5 1 8c1 1.5 3.5 4.5 7 4.5S14 9.5 15 8c-1-1.5-3.5-4.5-7-4.5z"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
    />
    <circle cx="8" cy="8" r="2.2" />
  </Icon>
);

export const CodeIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M5.5 4L1.5 8l4 4M10.5 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.5" />
  </Icon>
);

export const ColumnsIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M1.5 2.5h13v11h-13zM6 2.5v11M10.5 2.5v11" fill="none" stroke="currentColor" strokeWidth="1.2" />
  </Icon>
);

export const CloseIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.6" />
  </Icon>
);

export const CommentIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M2 2.5h12v8H7l-3.5 3v-3H2z" fill="none" stroke="currentColor" strokeWidth="1.2" strokeLinejoin="round" />
  </Icon>
);

export const DownloadIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M8 1.5v8M4.5 6.5L8 10l3.5-3.5M2 12.5v2h12v-2" fill="none" stroke="currentColor" strokeWidth="1.5" />
  </Icon>
);
