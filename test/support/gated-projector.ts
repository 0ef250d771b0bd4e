/**
 * A projector held at a gate, to make the projections lag on purpose: its first event of
 * `streamPrefix` stops the engine there (every projector applies in one loop) until `release()`.
 */
import type { Projector } from '../../projections/shared/projector.js';
import type { ServiceModule } from '../../src/platform/service.js';

export interface GatedProjector {
  projector: Projector;
  /** resolves once the projector holds an event at its gate */
  reached: Promise<void>;
  release(): void;
}

export function gatedProjector(name: string, streamPrefix: string): GatedProjector {
  let release = () => {};
  const open = new Promise<void>((resolve) => {
    release = resolve;
  });
  let enter = () => {};
  const reached = new Promise<void>((resolve) => {
    enter = resolve;
  });
  const projector: Projector = {
    name,
    collections: [],
    filter: { streamPrefixes: [streamPrefix] },
    async apply() {
      enter();
      await open;
    },
  };
  return { projector, reached, release: () => release() };
}

/** The service with one more projector after its own; `onBoot` sees the whole list. */
export function withProjector(
  service: ServiceModule,
  extra: Projector,
  onBoot?: (projectors: readonly Projector[]) => void,
): ServiceModule {
  return {
    ...service,
    boot(env) {
      const instance = service.boot(env);
      const projectors = [...instance.projectors, extra];
      onBoot?.(projectors);
      return { ...instance, projectors };
    },
  };
}
