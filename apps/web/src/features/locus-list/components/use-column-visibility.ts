import { useState } from 'react';

import { readStored, writeStored } from '@/lib/storage';

/** Local-storage key of the locus list's column choice. */
export const LOCUS_COLUMNS_KEY = 'antares.locus-list.columns';

function isVisibility(value: unknown): value is Record<string, boolean> {
  return typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'boolean');
}

/** Column visibility (default: all columns), saved on every change. */
export function useColumnVisibility(): [Record<string, boolean>, (next: Record<string, boolean>) => void] {
  const [visible, setVisible] = useState<Record<string, boolean>>(() => readStored(LOCUS_COLUMNS_KEY, isVisibility) ?? {});
  const update = (next: Record<string, boolean>) => {
    setVisible(next);
    writeStored(LOCUS_COLUMNS_KEY, next);
  };
  return [visible, update];
}
