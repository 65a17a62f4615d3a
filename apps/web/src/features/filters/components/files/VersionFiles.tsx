import Alert from 'react-bootstrap/Alert';

import { useVersionFiles } from '@/features/filters/api/filter-files';
import type { FilterVersion } from '@/features/filters/api/filters';

import { FileTable } from './FileTable';

/** For the review: the files a version was submitted with (what it runs with), and what it still lacks. */
export function VersionFiles({ filterId, version }: { filterId: string; version: FilterVersion }) {
  const files = useVersionFiles(filterId, version.id);
  if (!files.isSuccess) return null;
  if (files.data.required.length === 0 && files.data.files.length === 0) return null;
  return (
    <section className="mb-3" data-testid="version-files">
      <h3 className="h6">Files of version {version.id}</h3>
      <FileTable files={files.data.files} empty="No files." />
      {files.data.missing.length > 0 && (
        <Alert variant="warning" className="small mt-2 mb-0">
          Missing (REQUIRES_FILES), so it cannot be enabled: {files.data.missing.join(', ')}
        </Alert>
      )}
    </section>
  );
}
