/** The tags read model of the notes service: one document per tag, deleted ones included. */
export const tagsCollection = 'note_tags';

export type TagDoc = {
  /** `<userId>.<tagId>` */
  _id: string;
  id: string;
  userId: string;
  name: string;
  /** lower-cased trimmed name, for lookups by name (tags given by name on a note) */
  nameKey: string;
  /** palette index (commands/tag/palette.ts) or null */
  color: number | null;
  parentId: string | null;
  createdAt: number;
  updatedAt: number;
  deletedAt: number | null;
  revision: number;
};

export function tagDocId(userId: string, tagId: string): string {
  return `${userId}.${tagId}`;
}

export type TagView = Omit<TagDoc, '_id' | 'nameKey'>;

export function publicTag(doc: TagDoc): TagView {
  const { _id, _pos, nameKey, ...rest } = doc as TagDoc & { _pos?: string };
  return rest;
}
