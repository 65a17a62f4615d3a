import { FULL_VALUE_ATTRIBUTE, fullValueText } from '@/lib/full-precision';

/**
 * A table value as the spec shows it (`text`: numbers to 2 decimals), with the full value on hover
 * and in copies (see lib/full-precision.ts) whenever rounding hid digits.
 */
export function PreciseValue({ value, text, className }: { value: unknown; text: string; className?: string }) {
  const full = fullValueText(value, text);
  return (
    <span className={className} title={full} {...(full === undefined ? {} : { [FULL_VALUE_ATTRIBUTE]: full })}>
      {text}
    </span>
  );
}
