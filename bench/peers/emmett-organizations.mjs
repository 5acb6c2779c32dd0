// The peer's organization, shared by its two apps (the embedded store and PostgreSQL): the decision (the users
// limit, one member per address) and the routes, each given the store, how a command runs and how a row is read.
import { randomUUID } from 'node:crypto';
import { Conflict, Created, NotFound, OK, on } from '@event-driven-io/emmett-expressjs';

export const initialState = () => ({ exists: false, usersLimit: 0, members: [] });

export function evolve(state, { type, data }) {
  switch (type) {
    case 'OrganizationCreated':
      return { exists: true, usersLimit: data.usersLimit, members: [] };
    case 'MemberAdded':
      return { ...state, members: [...state.members, { userId: data.userId, email: data.email, role: data.role }] };
    default:
      return state;
  }
}

class Refused extends Error {}

function addMember(state, { userId, email, role }) {
  if (!state.exists) throw new Refused('NOT_FOUND');
  if (state.members.some((member) => member.email === email)) throw new Refused('DUPLICATE');
  if (state.members.length >= state.usersLimit) throw new Refused('LIMIT_EXCEEDED');
  return { type: 'MemberAdded', data: { userId, email, role } };
}

/** `handle(eventStore, id, decide)` runs one command (Emmett's CommandHandler); `organization(id)` reads its row or null. */
export const organizationRoutes = ({ eventStore, handle, organization }) => (router) => {
  router.get('/health', on(() => OK({ body: { status: 'ok' } })));
  router.post(
    '/organizations/:id',
    on(async (request) => {
      await handle(eventStore, request.params.id, (state) =>
        state.exists ? [] : [{ type: 'OrganizationCreated', data: { name: request.body.name, usersLimit: request.body.usersLimit } }],
      );
      return Created({ createdId: request.params.id });
    }),
  );
  router.post(
    '/organizations/:id/members',
    on(async (request) => {
      const userId = randomUUID();
      try {
        await handle(eventStore, request.params.id, (state) => addMember(state, { userId, email: request.body.email, role: request.body.role }));
      } catch (error) {
        if (!(error instanceof Refused)) {
          console.error(error);
          throw error;
        }
        return error.message === 'NOT_FOUND' ? NotFound({ problemDetails: error.message }) : Conflict({ problemDetails: error.message });
      }
      return Created({ createdId: userId });
    }),
  );
  router.get(
    '/organizations/:id',
    on(async (request) => {
      const row = await organization(request.params.id);
      return row === null ? NotFound({ problemDetails: 'NOT_FOUND' }) : OK({ body: row });
    }),
  );
};
