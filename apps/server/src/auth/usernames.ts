/**
 * Usernames as people read them (ADR 0061). A username is stored in NFKC form (so "ｖｒｕｂｉｎ" is "vrubin"),
 * may hold no invisible character, and must not look like an existing one: each name has a skeleton, and
 * two names with one skeleton are one name to a reader.
 *
 * The skeleton is a small cousin of Unicode's confusable skeleton (UTS #39), kept to what fools a reader of a
 * username in a list or a filter's author line:
 *   1. NFKC (compatibility forms: fullwidth, ligatures, superscripts, mathematical letters);
 *   2. Cyrillic and Greek letters that look like Latin ones become them (LOOK_ALIKES, both cases);
 *   3. case folded; diacritics dropped (NFD, combining marks removed: "vrübin" is "vrubin");
 *   4. separators dropped ("v.rubin", "v_rubin", "v-rubin" and "v rubin" are "vrubin");
 *   5. the digits and letter pairs that pass for letters: 0 -> o; 1, i, | -> l; 5 -> s; rn -> m; vv -> w.
 * It is deliberately coarse: a refused name only asks its registrant to choose another.
 */

/** Control, format (zero-width, bidi), private-use, unassigned and line-separator characters, and the blank "letters". */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0\u2800]/u;

/** Pairs of (look-alike, Latin letter): Cyrillic, then Greek, both cases. */
const LOOK_ALIKE_PAIRS =
  'аaАaвbВbсcСcԁdеeЕeёeЁeһhНhіiІiїiЇiјjЈjкkКkӏlӀlмmМmпnоoОoрpРpԛqѕsЅsтtТtцuԝwԜwхxХxуyУy' +
  'αaΑaβbΒbεeΕeηnΗhιiΙiκkΚkΜmνvΝnοoΟoρpΡpτtΤtυuΥyχxΧxΖz';
const LOOK_ALIKES: Record<string, string> = Object.fromEntries(
  Array.from({ length: LOOK_ALIKE_PAIRS.length / 2 }, (_, i) => [LOOK_ALIKE_PAIRS[2 * i], LOOK_ALIKE_PAIRS[2 * i + 1]]),
);

const SEPARATORS = /[\s._\-·'’]/gu;
const DIGITS_AND_PAIRS: Array<[RegExp, string]> = [
  [/0/g, 'o'],
  [/[1i|!]/g, 'l'],
  [/5/g, 's'],
  [/rn/g, 'm'],
  [/vv/g, 'w'],
];

/** The form a username is stored and compared in: NFKC, without leading or trailing white space. */
export function normalizeUsername(username: string): string {
  return username.normalize('NFKC').trim();
}

/** Whether a username holds a character nobody can see or type reliably (control, zero-width, bidi, ...). */
export function hasInvisibleCharacters(username: string): boolean {
  return INVISIBLE.test(username);
}

/** The skeleton two look-alike usernames share (see above). */
export function usernameSkeleton(username: string): string {
  const mapped = [...username.normalize('NFKC')].map((char) => LOOK_ALIKES[char] ?? char).join('');
  let skeleton = mapped.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(SEPARATORS, '');
  for (const [pattern, replacement] of DIGITS_AND_PAIRS) skeleton = skeleton.replace(pattern, replacement);
  return skeleton;
}
