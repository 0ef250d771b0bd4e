import {
  AlreadyExists,
  FailedPrecondition,
  InvalidArgument,
  NotFound,
} from '../../../commands/shared/errors.js';
import { type WorkspaceEvent, workspaceDecider } from '../../../commands/workspace/index.js';
import { deciderSpec } from '../../support/decider.js';

const given = deciderSpec(workspaceDecider);
const created: WorkspaceEvent = {
  type: 'WorkspaceCreated',
  data: { workspaceId: 'w1', name: 'Acme', slug: 'acme-co' },
};
const ownerAdded: WorkspaceEvent = { type: 'MemberAdded', data: { userId: 'u1', role: 'admin' } };
const bobAdded: WorkspaceEvent = { type: 'MemberAdded', data: { userId: 'u2', role: 'member' } };

describe('When a workspace is created', () => {
  const create = (slug: string) =>
    ({
      type: 'CreateWorkspace',
      data: { workspaceId: 'w1', name: 'Acme', slug, ownerId: 'u1' },
    }) as const;
  it('records it with its owner as admin', () => {
    given([]).when(create('acme-co')).then([created, ownerAdded]);
  });
  it('accepts slugs of 5 and of 20 characters, digits at either end', () => {
    // spec: "5 to 20 lowercase letters, digits, hyphens"
    for (const slug of ['9a0z9', 'a-b-c-d-e-f-g-h-i-jk']) {
      given([])
        .when(create(slug))
        .then([{ ...created, data: { ...created.data, slug } } as WorkspaceEvent, ownerAdded]);
    }
  });
  it('refuses a slug of 4 or 21 characters, or with a hyphen at either end', () => {
    for (const slug of ['abcd', 'a'.repeat(21), '-acme', 'acme-']) {
      given([]).when(create(slug)).thenThrows(InvalidArgument);
    }
  });
  it('refuses a slug with a doubled hyphen', () => {
    // spec: "no leading, trailing or doubled hyphen"
    given([]).when(create('acme--co')).thenThrows(InvalidArgument);
  });
  it('refuses to create it twice', () => {
    given([created]).when(create('acme-co')).thenThrows(AlreadyExists);
  });
});

describe('When members are managed', () => {
  it('adds a member', () => {
    given([created, ownerAdded])
      .when({ type: 'AddMember', data: { userId: 'u2', role: 'member' } })
      .then([bobAdded]);
  });
  it('treats adding the same member with the same role as done', () => {
    given([created, ownerAdded, bobAdded])
      .when({ type: 'AddMember', data: { userId: 'u2', role: 'member' } })
      .then([]);
  });
  it('refuses to add an existing member with another role', () => {
    given([created, ownerAdded, bobAdded])
      .when({ type: 'AddMember', data: { userId: 'u2', role: 'admin' } })
      .thenThrows(AlreadyExists);
  });
  it('changes a role', () => {
    given([created, ownerAdded, bobAdded])
      .when({ type: 'ChangeMemberRole', data: { userId: 'u2', role: 'admin' } })
      .then([{ type: 'MemberRoleChanged', data: { userId: 'u2', role: 'admin' } }]);
  });
  it('refuses to change the role of a non-member', () => {
    given([created, ownerAdded])
      .when({ type: 'ChangeMemberRole', data: { userId: 'u9', role: 'admin' } })
      .thenThrows(NotFound);
  });
  it('removes a member', () => {
    given([created, ownerAdded, bobAdded])
      .when({ type: 'RemoveMember', data: { userId: 'u2' } })
      .then([{ type: 'MemberRemoved', data: { userId: 'u2' } }]);
  });
  it('refuses to remove or demote the last admin', () => {
    given([created, ownerAdded, bobAdded])
      .when({ type: 'RemoveMember', data: { userId: 'u1' } })
      .thenThrows(FailedPrecondition);
    given([created, ownerAdded])
      .when({ type: 'ChangeMemberRole', data: { userId: 'u1', role: 'member' } })
      .thenThrows(FailedPrecondition);
  });
  it('refuses member changes on an unknown workspace', () => {
    given([])
      .when({ type: 'RemoveMember', data: { userId: 'u1' } })
      .thenThrows(NotFound);
  });
});
