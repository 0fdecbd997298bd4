import type { ReactNode } from 'react';

/** A page's heading and the line under it (muted), as every signed-in page opens. */
export function PageHeader({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children?: ReactNode;
}) {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      {subtitle ? <p className="muted">{subtitle}</p> : null}
      {children}
    </header>
  );
}
