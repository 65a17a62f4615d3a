import { useState } from 'react';

/**
 * The address is kept reversed in the page (so naive scrapers read nonsense) and shown the right way
 * round, with a working mailto link, only on mouseover or keyboard focus.
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
      aria-label={revealed ? `E-mail ${email}` : 'E-mail (hover or focus to reveal the address)'}
    >
      {revealed ? email : <span style={{ unicodeBidi: 'bidi-override', direction: 'rtl' }}>{reversed}</span>}
    </a>
  );
}
