import { statusText } from '@/features/filters/api/transitions';
import { isoUtcText } from '@/lib/time';

/** The version dropdown label keeps at most this many characters of a comment. */
export const COMMENT_LABEL_LENGTH = 30;

/** A comment cut at 30 characters, with an ellipsis when something was cut. */
export function truncateComment(comment: string, length = COMMENT_LABEL_LENGTH): string {
  const chars = [...comment];
  return chars.length > length ? `${chars.slice(0, length).join('')}...` : comment;
}

/** The dropdown label of a version: its number, truncated comment, status and date. */
export function versionLabel(version: { id: string; comment: string; status: string; created_at: string }): string {
  return `#${version.id} ${truncateComment(version.comment)} (${statusText(version.status)}, ${isoUtcText(version.created_at).slice(0, 10)})`;
}

/** The version shown first: the enabled one, else the latest (the list is newest first), else none. */
export function initialVersionId(enabledVersion: string | null, versions: { id: string }[]): string | null {
  if (enabledVersion) return enabledVersion;
  return versions[0]?.id ?? null;
}

/** The file name code downloads under: the filter name plus .py. */
export function codeFileName(filterName: string): string {
  return `${filterName}.py`;
}

/** Shown in the editor when the selected version cannot be loaded. */
export const VERSION_LOAD_ERROR_CODE = '# There was an error loading this filter.';

export const NO_VERSIONS_WARNING = 'This filter does not have submitted versions yet. Remember to submit one when you are ready.';

/** Starter code for a filter with no versions: a complete devkit filter that loads and runs as it is. */
export const TEMPLATE_CODE = `import antares.devkit as dk


class MyFilter(dk.Filter):
    """Describe in one sentence what this filter looks for."""

    # The tags this filter may add to a locus (each tag is also an output stream).
    OUTPUT_TAGS = [
        {'name': 'my_tag', 'description': 'Loci that match my criteria.'},
    ]

    # The locus properties this filter may set.
    OUTPUT_LOCUS_PROPERTIES = [
        {'name': 'my_property', 'type': 'float', 'description': 'A number computed by my filter.'},
    ]

    def run(self, locus):
        # locus.properties: the locus properties; locus.alerts: its alerts, oldest first.
        n = locus.properties.get('num_mag_values', 0)
        locus.properties['my_property'] = float(n)
        if n >= 10:
            locus.tag('my_tag')
`;
