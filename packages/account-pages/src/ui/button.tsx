import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'danger-ghost' | 'link';
export type ButtonSize = 'small' | 'medium' | 'large';

/**
 * The class names of a styled button (`button button-<variant>`), for a link that looks like one.
 * Every variant carries the base `button` class: a variant alone once left a control with the
 * browser's own padding and font.
 */
export function buttonClass(
  variant: ButtonVariant = 'secondary',
  { size = 'medium', block = false }: { size?: ButtonSize; block?: boolean } = {},
): string {
  return [
    'button',
    `button-${variant}`,
    size === 'medium' ? '' : `button-${size}`,
    block ? 'button-block' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className'> {
  /** Default `secondary`; `primary` for the one main action of a form, `danger` for what destroys. */
  variant?: ButtonVariant;
  /** Default `medium`. */
  size?: ButtonSize;
  /** Full width (default false). */
  block?: boolean;
  className?: string;
}

/** The one button of every screen: a native `<button>` (type `button` unless told) in our styles. */
export function Button({ variant, size, block, className, type = 'button', ...rest }: ButtonProps) {
  const classes = buttonClass(variant, { size, block });
  return <button type={type} className={className ? `${classes} ${className}` : classes} {...rest} />;
}
