import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';

import type { FilterFile } from '@/features/filters/api/filter-files';

/** Bytes as people read them. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1 << 20) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / (1 << 20)).toFixed(1)} MB`;
}

/** Files with their size and sha256; a download link each, and a Delete button when `onDelete` is given. */
export function FileTable({
  files,
  hrefOf,
  onDelete,
  empty,
}: {
  files: FilterFile[];
  hrefOf?: (name: string) => string;
  onDelete?: (name: string) => void;
  empty: string;
}) {
  if (files.length === 0) return <p className="small mb-0">{empty}</p>;
  return (
    <Table size="sm" responsive className="small mb-0">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Size</th>
          <th scope="col">sha256</th>
          <th scope="col">Uploaded</th>
          {onDelete && <th scope="col">Actions</th>}
        </tr>
      </thead>
      <tbody>
        {files.map((file) => (
          <tr key={file.name} data-testid="filter-file-row">
            <td>
              {hrefOf ? (
                <a href={hrefOf(file.name)} download={file.name}>
                  {file.name}
                </a>
              ) : (
                file.name
              )}
            </td>
            <td>{formatSize(file.size)}</td>
            <td>
              <code title={file.sha256}>{file.sha256}</code>
            </td>
            <td>{new Date(file.uploaded_at).toISOString().replace('T', ' ').slice(0, 19)}</td>
            {onDelete && (
              <td>
                <Button size="sm" variant="outline-danger" onClick={() => onDelete(file.name)} aria-label={`Delete ${file.name}`}>
                  Delete
                </Button>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
