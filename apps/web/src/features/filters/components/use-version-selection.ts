import { useState } from 'react';

import type { Filter, FilterVersion } from '@/features/filters/api/filters';

import { initialVersionId } from './versions/version-format';

/** The selected version: the user's choice, else the enabled version, else the latest. */
export function useVersionSelection(filter: Filter | undefined, versions: FilterVersion[] | undefined) {
  const [chosen, setChosen] = useState<string | null>(null);
  const initial = filter && versions ? initialVersionId(filter.enabled_version, versions) : null;
  return [chosen ?? initial, setChosen] as const;
}
