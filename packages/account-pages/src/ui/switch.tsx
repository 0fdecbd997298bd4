import * as RadixSwitch from '@radix-ui/react-switch';
import { type ReactNode, useId } from 'react';

export interface SwitchProps {
  /** What the switch turns on, as its label (clicking the label flips it too). */
  label: ReactNode;
  checked: boolean;
  onCheckedChange(checked: boolean): void;
  /** A line under the label that says what on and off mean; read as the switch's description. */
  hint?: ReactNode;
  disabled?: boolean;
}

/**
 * An on/off setting that takes effect when its form is saved (Radix Switch: `role="switch"` with
 * `aria-checked`, Space and Enter flip it, a hidden input when inside a form), in our styles.
 */
export function Switch({ label, checked, onCheckedChange, hint, disabled }: SwitchProps) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="portico-switch-field">
      <div className="portico-switch-row">
        <RadixSwitch.Root
          id={id}
          className="portico-switch"
          checked={checked}
          onCheckedChange={onCheckedChange}
          disabled={disabled}
          aria-describedby={hint ? hintId : undefined}
        >
          <RadixSwitch.Thumb className="portico-switch-thumb" />
        </RadixSwitch.Root>
        <label htmlFor={id}>{label}</label>
      </div>
      {hint ? (
        <p id={hintId} className="muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
