import type { ReactNode } from 'react';

/** What a list says when it has nothing yet, and the way to add the first (an action, optional). */
export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="portico-empty">
      <p>{children}</p>
      {action}
    </div>
  );
}
