/** The notes service's read models, for the projection engine. */
import type { Projector } from './shared/projector.js';
import { devicesProjector } from './devices/projector.js';
import { notesProjector } from './notes/projector.js';
import { syncProjector } from './sync/projector.js';
import { tagsProjector } from './tags/projector.js';

export function notesProjectors(options: { syncRetainPerUser?: number } = {}): Projector[] {
  return [
    notesProjector(),
    tagsProjector(),
    devicesProjector(),
    syncProjector({ retainPerUser: options.syncRetainPerUser }),
  ];
}
