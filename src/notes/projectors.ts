/** The notes service's read models, for the projection engine. */
import type { Projector } from '../../projections/shared/projector.js';
import { devicesProjector } from '../../projections/devices/projector.js';
import { notesProjector } from '../../projections/notes/projector.js';
import { syncProjector } from '../../projections/sync/projector.js';
import { tagsProjector } from '../../projections/tags/projector.js';

export function notesProjectors(options: { syncRetainPerUser?: number } = {}): Projector[] {
  return [
    notesProjector(),
    tagsProjector(),
    devicesProjector(),
    syncProjector({ retainPerUser: options.syncRetainPerUser }),
  ];
}
