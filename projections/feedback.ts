/** Every read model of the feedback board, for the service module and the projection engine. */
import { auditProjector } from './audit/projector.js';
import { changelogProjector } from './changelog/index.js';
import { integrationsProjector } from './integrations/projector.js';
import { itemsProjector } from './items/projector.js';
import { peopleProjector } from './people/projector.js';
import { productsProjector } from './products/projector.js';
import { repliesProjector } from './replies/projector.js';
import type { Projector } from './shared/projector.js';
import { tokensProjector } from './tokens/projector.js';
import { usersProjector } from './users/projector.js';
import { webhooksProjector } from './webhooks/projector.js';
import { workspacesProjector } from './workspaces/projector.js';

export function feedbackProjectors(): Projector[] {
  return [
    usersProjector(),
    workspacesProjector(),
    productsProjector(),
    itemsProjector(),
    repliesProjector(),
    peopleProjector(),
    tokensProjector(),
    changelogProjector(),
    auditProjector(),
    webhooksProjector(),
    integrationsProjector(),
  ];
}
