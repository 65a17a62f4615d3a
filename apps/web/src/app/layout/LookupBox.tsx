import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { useNavigate } from 'react-router';

import { SearchIcon } from '@/components/Icon';

/**
 * The top-bar ID lookup. Submitting goes through /loci/lookup/{text}, whose loader turns the text
 * into the lookup filter (lib/id-lookup.ts: ZTF and locus ids, Rubin diaObjectIds, alert ids) and
 * redirects to the locus list with a fresh query holding only that filter; when the list is
 * already open, that navigation resets its query.
 */
export function LookupBox() {
  const [text, setText] = useState('');
  const navigate = useNavigate();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    void navigate(`/loci/lookup/${encodeURIComponent(value)}`);
    setText('');
  };

  return (
    <Form onSubmit={submit} role="search" className="lookup-box" style={{ maxWidth: 300 }}>
      <InputGroup size="sm">
        <Form.Control
          type="search"
          placeholder="Lookup Object by ID"
          aria-label="Lookup Object by ID"
          value={text}
          onChange={(event) => setText(event.target.value)}
          required
        />
        <Button type="submit" variant="light" disabled={text.trim() === ''} aria-label="Lookup">
          <SearchIcon />
        </Button>
      </InputGroup>
    </Form>
  );
}
