import { useState } from 'react';

/**
 * The address is kept reversed in the page (so naive scrapers read nonsense; drawn right-to-left, it
 * still reads correctly) and becomes a working mailto link, with the address in the page the right
 * way round, only on mouseover or keyboard focus (so a screen reader reaching the link hears the
 * real address). No aria-label before that: one unlike the visible text is an accessibility fault
 * (label-content-name-mismatch).
 */
export function ObfuscatedEmail({ email }: { email: string }) {
  const reversed = email.split('').reverse().join('');
  const [revealed, setRevealed] = useState(false);
  const reveal = () => setRevealed(true);
  return (
    <a
      href={revealed ? `mailto:${email}` : '#'}
      onMouseOver={reveal}
      onFocus={reveal}
      onClick={(event) => !revealed && event.preventDefault()}
      data-email={reversed}
      aria-label={revealed ? `E-mail ${email}` : undefined}
      title={revealed ? undefined : 'Hover or focus to reveal the e-mail address'}
    >
      {revealed ? email : <span style={{ unicodeBidi: 'bidi-override', direction: 'rtl' }}>{reversed}</span>}
    </a>
  );
}
