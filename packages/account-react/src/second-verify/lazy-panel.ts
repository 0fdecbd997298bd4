import { type ComponentType, createElement, lazy } from 'react';

/** A dialog panel whose module loads when first shown or preloaded. */
export interface LazyPanel<Props> {
  Panel: ComponentType<Props>;
  /** Starts loading the module (once); a failed load is forgotten, so the next call tries again. */
  preload(): Promise<ComponentType<Props>>;
  /** Forgets a failed load: the next render loads the module again (a chunk lost to a deploy or a drop). */
  reset(): void;
}

/**
 * `React.lazy` keeps a rejected import for good: one dropped chunk would break the dialog until the
 * page reloads. This one makes a new lazy component after a failure (`reset`), and shares one load with
 * `preload`.
 */
export function lazyPanel<Props extends object>(load: () => Promise<ComponentType<Props>>): LazyPanel<Props> {
  let loading: Promise<ComponentType<Props>> | undefined;
  const preload = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const make = () => lazy(() => preload().then((component) => ({ default: component })));
  let Current = make();
  return {
    Panel: (props: Props) => createElement(Current, props),
    preload,
    reset() {
      Current = make();
    },
  };
}
