/**
 * The responses a server has not finished yet, for a graceful close: a doubly-linked list with one
 * node per response, added when the request arrives and unlinked when its response closes.
 *
 * Why not a `Set`: a long-lived Set that gains and loses an entry on every request rehashes its
 * table again and again, and V8 allocates each new table where the Set lives, in the old
 * generation: under load, old-generation garbage, frequent mark-compacts and a p99 well above bare
 * node:http (the figures: bench/README.md "What moved the figures"). A node is one small
 * young object that dies with its request.
 */
export interface PendingResponses<T> extends Iterable<T> {
  /** Adds `item`; returns the function that removes it again (idempotent). */
  add(item: T): () => void;
  /** Items held now. */
  readonly size: number;
}

interface Node<T> {
  item: T;
  prev: Node<T> | undefined;
  next: Node<T> | undefined;
  linked: boolean;
}

/**
 * Creates an empty list. Iteration visits the items in the order added and tolerates removals
 * while it runs (a removed node keeps its `next`, so the walk goes on from it).
 */
export function createPendingResponses<T>(): PendingResponses<T> {
  let head: Node<T> | undefined;
  let tail: Node<T> | undefined;
  let size = 0;
  const unlink = (node: Node<T>): void => {
    if (!node.linked) return;
    node.linked = false;
    if (node.prev) node.prev.next = node.next;
    else head = node.next;
    if (node.next) node.next.prev = node.prev;
    else tail = node.prev;
    size -= 1;
  };
  return {
    get size() {
      return size;
    },
    add(item) {
      const node: Node<T> = { item, prev: tail, next: undefined, linked: true };
      if (tail) tail.next = node;
      else head = node;
      tail = node;
      size += 1;
      return () => unlink(node);
    },
    *[Symbol.iterator]() {
      for (let node = head; node; ) {
        const next = node.next;
        if (node.linked) yield node.item;
        node = next;
      }
    },
  };
}
