/**
 * An item's page: title, status, body, the +1 button, the items merged into it (each with the id
 * `merged-<KEY>` its old address redirects to), and the replies as a thread (each reply
 * under its parent; maker and agent replies marked). Text is shown as text, line breaks kept by
 * CSS; nothing a user wrote becomes HTML. The `via` field is never shown.
 */
import type { Item } from '../../../../projections/items/document.js';
import type { Reply } from '../../../../projections/replies/queries.js';
import { type BoardNav, Layout } from './layout.js';
import { isolated } from '../isolate.js';
import { DateShown, type FormAuth, PlusOneButton, Status } from './parts.js';

export interface ItemView {
  nav: BoardNav;
  item: Item;
  url: string;
  replies: Reply[];
  /** the items merged into it, oldest first: their +1s and people count here */
  merged: { id: string; title: string }[];
  plusOned: boolean;
  /** the visitor submitted it */
  own: boolean;
  auth: FormAuth;
}

const KIND_LABEL: Record<Reply['authorKind'], string | null> = {
  maker: 'Team',
  agent: 'Assistant',
  person: null,
};

type Children = Map<string | null, Reply[]>;

function childrenOf(replies: Reply[]): Children {
  const children: Children = new Map();
  for (const reply of replies) {
    const list = children.get(reply.parentId) ?? [];
    list.push(reply);
    children.set(reply.parentId, list);
  }
  return children;
}

function Thread(props: { tree: Children; parent: string | null; depth: number }) {
  const here = props.tree.get(props.parent);
  if (!here) return null;
  return (
    <ol class={props.depth === 0 ? 'thread' : 'thread nested'}>
      {here.map((reply) => {
        const kind = KIND_LABEL[reply.authorKind];
        return (
          <li class={`reply reply-${reply.authorKind}`} id={`reply-${reply.id}`}>
            <p class="meta">
              <strong dir="auto">{reply.authorName ?? 'Someone'}</strong>
              {kind ? <span class={`badge badge-${reply.authorKind}`}>{kind}</span> : null} ·{' '}
              <DateShown ms={reply.createdAt} />
            </p>
            <p class="text" dir="auto">
              {reply.body}
            </p>
            <Thread tree={props.tree} parent={reply.id} depth={props.depth + 1} />
          </li>
        );
      })}
    </ol>
  );
}

export function ItemPage(v: ItemView) {
  const { item } = v;
  const author = item.author.displayName ?? 'Anonymous';
  return (
    <Layout title={`${isolated(item.title)} · ${isolated(v.nav.productName)}`} nav={v.nav}>
      <article class="item-page">
        <div class="item-head">
          <PlusOneButton
            back="item"
            action={`${v.url}/plus-one`}
            count={item.plusOneCount}
            given={v.plusOned}
            own={v.own}
            title={item.title}
            auth={v.auth}
          />
          <div>
            <h1 dir="auto">{item.title}</h1>
            <p class="meta">
              <Status status={item.status} /> · {item.id} · by <span dir="auto">{author}</span> on{' '}
              <DateShown ms={item.createdAt} />
            </p>
          </div>
        </div>
        <p class="text" dir="auto">
          {item.body}
        </p>
        {v.merged.length ? (
          <section class="merged" aria-labelledby="merged-heading">
            <h2 id="merged-heading">Also asked as</h2>
            <p class="muted">Merged into this item: their +1s and people count here.</p>
            <ul>
              {v.merged.map((m) => (
                <li id={`merged-${m.id}`}>
                  <span dir="auto">{m.title}</span> <span class="muted">· {m.id}</span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <h2>
          {v.replies.length} {v.replies.length === 1 ? 'reply' : 'replies'}
        </h2>
        <Thread tree={childrenOf(v.replies)} parent={null} depth={0} />
      </article>
    </Layout>
  );
}
