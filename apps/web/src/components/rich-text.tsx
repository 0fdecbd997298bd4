import type { ReactNode } from 'react';

/**
 * Renders the legal documents' markdown-ish text as elements (never as HTML): blank lines separate
 * blocks; a block starting with '## ' or '### ' is a heading, one whose lines all start with '- ' a
 * list, anything else a paragraph.
 */
export function RichText({ text }: { text: string }) {
  const blocks = text
    .trim()
    .split(/\n\s*\n/)
    .map((block) => block.trim());
  const out: ReactNode[] = [];
  blocks.forEach((block, index) => {
    const lines = block.split('\n').map((line) => line.trim());
    if (block.startsWith('### ')) out.push(<h3 key={index}>{block.slice(4)}</h3>);
    else if (block.startsWith('## ')) out.push(<h2 key={index}>{block.slice(3)}</h2>);
    else if (lines.every((line) => line.startsWith('- ')))
      out.push(
        <ul key={index}>
          {lines.map((line) => (
            <li key={line}>{line.slice(2)}</li>
          ))}
        </ul>,
      );
    else out.push(<p key={index}>{lines.join(' ')}</p>);
  });
  return <>{out}</>;
}
