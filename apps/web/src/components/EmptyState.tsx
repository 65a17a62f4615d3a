import type { ReactNode } from 'react';

/** A centred call-to-action panel for logged-out and empty states. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="text-center py-5 px-3 bg-body-tertiary rounded-3">
      <h1 className="h3 mb-3">{title}</h1>
      {children}
    </section>
  );
}
