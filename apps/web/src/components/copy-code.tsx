import { useEffect, useState } from 'react';
import { useCopyT } from './copy-code.messages';

/** A code sample with a copy button; the result is announced in a polite status line. */
export function CopyCode({ code, label }: { code: string; label: string }) {
  const t = useCopyT();
  const [state, setState] = useState<'idle' | 'done' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setState('done');
    } catch {
      setState('failed');
    }
  }
  return (
    <figure className="code-block">
      <figcaption>
        <span>{label}</span>
        <button type="button" className="button button-small" onClick={copy}>
          {t('copy.button')}
          <span className="visually-hidden">: {label}</span>
        </button>
      </figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <pre tabIndex={0}>
        <code>{code}</code>
      </pre>
      <p className="code-block-status" role="status">
        {state === 'done' ? t('copy.done') : state === 'failed' ? t('copy.failed') : ''}
      </p>
    </figure>
  );
}
