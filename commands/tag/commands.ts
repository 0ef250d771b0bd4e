/**
 * Commands of the tag aggregate. The parent rules (exists, belongs to the user, not deleted,
 * no cycle) need other tags' state, so the action looks the parent up and passes the result:
 * its status and its ancestor chain (parent's parent first, up to the root).
 */

export interface ParentLookup {
  status: 'none' | 'active' | 'deleted';
  /** ids from the parent's own parent up to the root */
  ancestorIds: string[];
}

export type CreateTag = {
  type: 'CreateTag';
  data: {
    tagId: string;
    userId: string;
    name: string;
    color: number | null;
    parentId: string | null;
    /** required when parentId is set */
    parent: ParentLookup | null;
  };
};

/** Absent fields keep their value; null clears color / moves the tag to the root. */
export type UpdateTag = {
  type: 'UpdateTag';
  data: {
    name?: string;
    color?: number | null;
    parentId?: string | null;
    /** lookup of the new parentId, required when parentId is set */
    parent?: ParentLookup | null;
    expectedRevision?: number;
  };
};

export type DeleteTag = { type: 'DeleteTag'; data: { expectedRevision?: number } };

export type TagCommand = CreateTag | UpdateTag | DeleteTag;
