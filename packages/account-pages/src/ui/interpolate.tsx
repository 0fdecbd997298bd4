import { Fragment, type ReactNode } from 'react';

/** Renders a translated text whose `{name}` placeholders are React nodes (links inside a sentence). */
export function Interpolate({ text, values }: { text: string; values: Record<string, ReactNode> }) {
  const parts = text.split(/(\{\w+\})/);
  return (
    <>
      {parts.map((part, index) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        return <Fragment key={index}>{name && name in values ? values[name] : part}</Fragment>;
      })}
    </>
  );
}
