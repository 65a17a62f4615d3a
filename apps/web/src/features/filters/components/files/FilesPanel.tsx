import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import ProgressBar from 'react-bootstrap/ProgressBar';

import { deleteFilterFile, filterFilesKey, filterFileUrl, uploadFilterFile, useFilterFiles } from '@/features/filters/api/filter-files';
import type { Filter } from '@/features/filters/api/filters';

import { DeleteFileDialog } from './DeleteFileDialog';
import { FileTable } from './FileTable';

/**
 * The filter's data files (REQUIRES_FILES): the list (size, sha256, download) for whoever sees the filter;
 * upload (with its progress) and delete (after a confirmation) for its owner and admins. A file is named
 * as the code lists it, so the chosen file's own name is the one sent.
 */
export function FilesPanel({ filter, mayAct }: { filter: Filter; mayAct: boolean }) {
  const client = useQueryClient();
  const files = useFilterFiles(filter.id);
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ variant: 'success' | 'danger' | 'warning'; text: string } | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const refresh = () => client.invalidateQueries({ queryKey: filterFilesKey(filter.id) });

  const upload = async (file: File) => {
    setMessage(null);
    setProgress(0);
    try {
      const answer = await uploadFilterFile(filter.id, file, setProgress);
      const keeps = answer.meta?.enabled_version_keeps;
      setMessage(
        keeps
          ? {
              variant: 'warning',
              text: `Uploaded ${file.name}. The enabled version ${keeps.version_id} keeps running with the file it was reviewed with: submit a new version to use this one.`,
            }
          : { variant: 'success', text: `Uploaded ${file.name}.` },
      );
    } catch (error) {
      setMessage({ variant: 'danger', text: `${file.name}: ${(error as Error).message}` });
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
      await refresh();
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteFilterFile(filter.id, deleting);
      setMessage({ variant: 'success', text: `Deleted ${deleting}.` });
    } catch (error) {
      setMessage({ variant: 'danger', text: `${deleting}: ${(error as Error).message}` });
    } finally {
      setBusy(false);
      setDeleting(null);
      await refresh();
    }
  };

  return (
    <Card className="mb-3" data-testid="filter-files">
      <Card.Header as="h2" className="h6 mb-0">
        Files
      </Card.Header>
      <Card.Body>
        <p className="small text-body-secondary">
          Data files the code lists in <code>REQUIRES_FILES</code>: given to the filter as <code>self.files[name]</code> (bytes) and in its
          working directory, read-only. A version keeps the files it was reviewed with.
        </p>
        {files.isPending && <p role="status">Loading...</p>}
        {files.isError && <Alert variant="danger">{files.error.message}</Alert>}
        {files.isSuccess && (
          <FileTable
            files={files.data}
            hrefOf={(name) => filterFileUrl(filter.id, name)}
            onDelete={mayAct ? (name) => setDeleting(name) : undefined}
            empty="No files uploaded."
          />
        )}
        {mayAct && (
          <Form.Group controlId={`filter-file-${filter.id}`} className="mt-2">
            <Form.Label className="small">Upload a file (named as REQUIRES_FILES lists it)</Form.Label>
            <Form.Control
              ref={input}
              type="file"
              size="sm"
              disabled={progress !== null}
              onChange={(event) => {
                const file = (event.target as HTMLInputElement).files?.[0];
                if (file) void upload(file);
              }}
            />
          </Form.Group>
        )}
        {progress !== null && (
          <ProgressBar
            className="mt-2"
            now={Math.round(progress * 100)}
            label={`${Math.round(progress * 100)}%`}
            aria-label="Upload progress"
          />
        )}
        {message && (
          <Alert variant={message.variant} className="mt-2 mb-0 small" role={message.variant === 'danger' ? 'alert' : 'status'}>
            {message.text}
          </Alert>
        )}
      </Card.Body>
      <DeleteFileDialog name={deleting} busy={busy} onConfirm={() => void remove()} onCancel={() => setDeleting(null)} />
    </Card>
  );
}
