import { LIMITS } from '@antares/contract';
import Papa from 'papaparse';

/**
 * The objects file of a new watch list, checked in the browser before anything is sent: CSV without
 * a header, one object per row as `right_ascension,declination,radius[,comment]`, empty lines skipped,
 * numbers typed. The file is streamed through papaparse in chunks (so 100,000 rows never block the
 * page), and the first bad row stops the read.
 */

/** The spec's invalid-file message; the format rules follow it. */
export const INVALID_CSV_MESSAGE = 'Invalid CSV file. Please make sure that your file meets the requirements.';

/** The most objects one watch list takes in one request (the server's limit). */
export const MAX_OBJECTS = LIMITS.watchObjectsMax;
/** The longest comment the server keeps. */
export const COMMENT_MAX = LIMITS.watchObjectCommentMax;

export const RANGES = {
  right_ascension: { min: 0, max: 360, text: 'between 0.0 and 360.0' },
  declination: { min: -90, max: 90, text: 'between -90.0 and 90.0' },
  radius: { min: 0, max: LIMITS.watchRadiusMaxDeg, text: 'between 0.0 and 0.01' },
} as const;

type NumberField = keyof typeof RANGES;
const NUMBER_FIELDS: NumberField[] = ['right_ascension', 'declination', 'radius'];

/** The format rules shown under the file field and after the invalid-file message. */
export const CSV_RULES: readonly string[] = [
  'The file is CSV with no header row.',
  'Each row is right_ascension,declination,radius[,comment]; the comment is optional (quote it if it contains commas).',
  'right_ascension, declination and radius are required numbers, in degrees.',
  `right_ascension is ${RANGES.right_ascension.text}, declination ${RANGES.declination.text} and radius ${RANGES.radius.text} degree.`,
  `A comment has at most ${COMMENT_MAX} characters.`,
  'Empty lines are skipped.',
  `At most ${MAX_OBJECTS.toLocaleString('en-US')} objects.`,
];

export interface WatchObjectInput {
  right_ascension: number;
  declination: number;
  radius: number;
  comment?: string;
}

export type CsvCheck =
  | { ok: true; objects: WatchObjectInput[] }
  /** `line` is 1-based (null when the problem is the file as a whole). */
  | { ok: false; line: number | null; problem: string };

/** A plain decimal number (optionally with an exponent): no hex, no 'Infinity', no blanks. */
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** One row's object, or the reason it is not one. */
export function checkRow(fields: readonly string[]): WatchObjectInput | string {
  if (fields.length < 3) {
    const missing = NUMBER_FIELDS.slice(fields.length).join(', ');
    return `${missing} missing (found ${fields.length} ${fields.length === 1 ? 'field' : 'fields'}, expected right_ascension,declination,radius[,comment])`;
  }
  if (fields.length > 4)
    return `${fields.length} fields, at most 4 expected (right_ascension,declination,radius,comment); quote a comment that contains commas`;
  const values: Partial<Record<NumberField, number>> = {};
  for (const [index, field] of NUMBER_FIELDS.entries()) {
    const text = fields[index].trim();
    if (text === '') return `${field} is required`;
    if (!NUMBER.test(text)) return `${field} is not a number: "${text.length > 40 ? `${text.slice(0, 40)}...` : text}"`;
    const value = Number(text);
    const range = RANGES[field];
    if (!(value >= range.min && value <= range.max)) return `${field} must be ${range.text} (found ${text})`;
    values[field] = value;
  }
  const object: WatchObjectInput = { right_ascension: values.right_ascension!, declination: values.declination!, radius: values.radius! };
  const comment = fields[3]?.trim();
  if (comment && comment.length > COMMENT_MAX) return `comment has more than ${COMMENT_MAX} characters`;
  if (comment) object.comment = comment;
  return object;
}

function isEmptyRow(fields: readonly string[]): boolean {
  return fields.length === 0 || (fields.length === 1 && fields[0].trim() === '');
}

/**
 * Reads the objects file (a browser File, or a Node stream in tests). `onProgress` hears the number
 * of objects read so far after each chunk.
 */
export function parseObjectsCsv(source: Papa.LocalFile, onProgress?: (objects: number) => void): Promise<CsvCheck> {
  return new Promise((resolve) => {
    const objects: WatchObjectInput[] = [];
    let line = 0;
    let failure: CsvCheck | null = null;
    const fail = (at: number | null, problem: string, parser: Papa.Parser) => {
      failure = { ok: false, line: at, problem };
      parser.abort();
    };
    Papa.parse<string[]>(source, {
      delimiter: ',',
      header: false,
      dynamicTyping: false,
      skipEmptyLines: false,
      chunkSize: 256 * 1024,
      chunk: (results, parser) => {
        if (failure) return;
        const quoteError = results.errors.find((error) => error.type === 'Quotes');
        const badRow = quoteError?.row ?? Number.POSITIVE_INFINITY;
        for (let i = 0; i < results.data.length; i += 1) {
          line += 1;
          if (i === badRow) return fail(line, 'a quoted field is not closed properly', parser);
          const fields = results.data[i];
          if (isEmptyRow(fields)) continue;
          const checked = checkRow(fields);
          if (typeof checked === 'string') return fail(line, checked, parser);
          if (objects.length === MAX_OBJECTS) return fail(line, `more than ${MAX_OBJECTS.toLocaleString('en-US')} objects`, parser);
          objects.push(checked);
        }
        if (quoteError) return fail(line, 'a quoted field is not closed properly', parser);
        onProgress?.(objects.length);
      },
      complete: () => {
        if (failure) resolve(failure);
        else if (objects.length === 0) resolve({ ok: false, line: null, problem: 'the file holds no objects' });
        else resolve({ ok: true, objects });
      },
      error: (error: Error) => resolve({ ok: false, line: null, problem: `the file could not be read (${error.message})` }),
    });
  });
}
