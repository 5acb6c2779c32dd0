// The event both write benches append: a MemberAdded of the usual size, with metadata.
import { randomUUID } from 'node:crypto';

export function anEvent(index) {
  return {
    id: randomUUID(),
    type: 'MemberAdded',
    data: { userId: randomUUID(), email: `member-${index}@example.com`, role: 'editor', chorusUser: true },
    metadata: { actor: 'user:bench', correlationId: randomUUID(), causationId: randomUUID(), sourceIp: '127.0.0.1' },
  };
}
