// The Account page's "Your data" and "Delete my account" from the user's side (docs/privacy.md): the copy is
// fetched and offered as a file; the consequences are said before anything is asked; a wrong password, the
// last owner of an organization and success (the sign-in screen) each end as the person would expect.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import { adaSession, anOrganization, consoleServer } from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

const copy = {
  exportedAt: '2030-03-12T09:41:00.000Z',
  account: { userId: 'id-ada', email: 'ada@acme.example', username: null, hasPassword: true },
};

function renderAccount(confirmWith: 'password' | 'code' = 'password') {
  const reads = consoleServer({ session: adaSession(), organizations: [anOrganization()] });
  const network = createFakeNetwork({
    server: (request) => {
      if (request.method !== 'GET') return undefined;
      if (request.url === '/sessions') return { status: 200, body: { sessions: [] } };
      if (request.url === '/account/two-step')
        return {
          status: 200,
          body: { confirmWith, authenticatorApp: null, passkeys: [], recoveryCodes: null, requiredBy: [] },
        };
      return reads(request);
    },
  });
  const view = renderWithProviders(<AppRoutes />, { route: '/app/account', network });
  return { ...view, write: (method: string) => network.take(method) };
}

const deleteCard = () => screen.getByRole('region', { name: 'Delete my account' });
const deleteForm = () => screen.getByRole('form', { name: 'Delete my account' });

async function openDeletion(view: ReturnType<typeof renderAccount>) {
  await view.user.click(
    await within(await screen.findByRole('region', { name: 'Delete my account' })).findByRole('button', {
      name: 'Delete my account',
    }),
  );
  return deleteForm();
}

async function deleteWith(view: ReturnType<typeof renderAccount>, password: string) {
  const form = await openDeletion(view);
  await view.user.type(within(form).getByLabelText('Your password'), password);
  await view.user.click(within(form).getByRole('button', { name: 'Delete my account for good' }));
  const removal = await view.write('DELETE');
  expect(removal).toMatchObject({ url: '/account', body: { password } });
  return removal;
}

describe('downloading my data', () => {
  let saved: { name: string; blob: Blob }[];
  const objects = new Map<string, Blob>();

  beforeEach(() => {
    saved = [];
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        const url = `blob:http://localhost/${objects.size}`;
        objects.set(url, blob);
        return url;
      },
      revokeObjectURL: (url: string) => objects.delete(url),
    });
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: objects.get(this.href) as Blob });
    });
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  const text = (blob: Blob) =>
    new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(blob);
    });

  it('says what the file holds, fetches GET /account/export and offers it as chorus-account-<date>.json', async () => {
    const view = renderAccount();
    const card = await screen.findByRole('region', { name: 'Your data' });
    expect(card).toHaveTextContent(
      'your organizations and roles (and who changed them), your sessions, your sign-ins and failed tries',
    );
    expect(card).toHaveTextContent('what your company’s directory says about you');
    expect(card).toHaveTextContent('It never holds your password or any other secret.');
    await view.user.click(within(card).getByRole('button', { name: 'Download my data' }));
    const request = await waitFor(() => {
      const found = view.network.requests.find((candidate) => candidate.url === '/account/export');
      if (found === undefined) throw new Error('no GET /account/export yet');
      return found;
    });
    expect(request.method).toBe('GET');
    request.respond(200, copy);
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toMatch(/^chorus-account-\d{4}-\d{2}-\d{2}\.json$/);
    expect(saved[0]?.blob.type).toBe('application/json');
    expect(JSON.parse(await text(saved[0]!.blob))).toEqual(copy);
    await waitFor(() =>
      expect(within(card).getByRole('status')).toHaveTextContent(`Your data is saved as ${saved[0]?.name}.`),
    );
  });
});

describe('deleting my account', () => {
  it('says what it means before asking for anything, and Cancel takes the focus back to the button', async () => {
    const view = renderAccount();
    const card = await screen.findByRole('region', { name: 'Delete my account' });
    for (const consequence of [
      'Your e-mail address and username are erased for good.',
      'Your memberships end',
      'You are signed out everywhere.',
      'keeps what happened, with you shown as “Erased person”',
      'This cannot be undone.',
      'You can sign up again with the same address, but as a new person',
    ]) {
      expect(card).toHaveTextContent(consequence);
    }
    expect(within(card).queryByRole('form')).not.toBeInTheDocument();
    expect(within(card).queryByLabelText('Your password')).not.toBeInTheDocument();

    const form = await openDeletion(view);
    const field = within(form).getByLabelText('Your password');
    expect(field).toHaveFocus();
    expect(
      within(card).getByText('This cannot be undone.', { exact: false }).compareDocumentPosition(form) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();

    await view.user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(within(deleteCard()).getByRole('button', { name: 'Delete my account' })).toHaveFocus();
    expect(view.network.requests.some((request) => request.method === 'DELETE')).toBe(false);
  });

  it('asks for the password before sending anything', async () => {
    const view = renderAccount();
    const form = await openDeletion(view);
    await view.user.click(within(form).getByRole('button', { name: 'Delete my account for good' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Enter your password.');
    expect(within(form).getByLabelText('Your password')).toHaveAttribute('aria-invalid', 'true');
    expect(view.network.requests.some((request) => request.method === 'DELETE')).toBe(false);
  });

  it('says a wrong password in the words of the password form, and keeps the person signed in', async () => {
    const view = renderAccount();
    const removal = await deleteWith(view, 'not it');
    removal.respond(400, {
      status: 400,
      code: 'WRONG_PASSWORD',
      detail: 'The password is not correct.',
      field: 'password',
    });
    await waitFor(() =>
      expect(within(deleteForm()).getByRole('alert')).toHaveTextContent('The password is not correct.'),
    );
    expect(within(deleteForm()).getByLabelText('Your password')).toHaveAttribute('aria-invalid', 'true');
    expect(within(deleteForm()).getByLabelText('Your password')).toHaveAccessibleDescription(
      /The password is not correct\./,
    );
    expect(view.navigate).not.toHaveBeenCalled();
  });

  it('names the organizations of which the person is the last owner, with the way to their members', async () => {
    const view = renderAccount();
    const removal = await deleteWith(view, 'right one');
    removal.respond(409, {
      status: 409,
      code: 'LAST_OWNER',
      detail: 'You are the last owner of Acme, Beta Co: make someone else an owner first.',
      organizations: [
        { id: 'acme', name: 'Acme' },
        { id: 'beta', name: 'Beta Co' },
      ],
    });
    const alert = await within(deleteForm()).findByText(/You are the last owner of/);
    expect(alert.closest('[role="alert"]')).toHaveTextContent(
      'You are the last owner of Acme and Beta Co. Make someone else an owner of each first, then delete your account.',
    );
    expect(within(deleteForm()).getByRole('link', { name: 'Beta Co' })).toHaveAttribute(
      'href',
      '/app/orgs/beta/members',
    );
    expect(view.navigate).not.toHaveBeenCalled();
  });

  it('goes to the sign-in screen once the account is deleted', async () => {
    const view = renderAccount();
    (await deleteWith(view, 'right one')).respond(204);
    await waitFor(() => expect(view.navigate).toHaveBeenCalledWith('/login'));
  });

  it('asks an account without a password for a code from its app instead', async () => {
    const view = renderAccount('code');
    const form = await openDeletion(view);
    await waitFor(() =>
      expect(within(form).getByLabelText('A code from your authenticator app, or a recovery code')).toHaveFocus(),
    );
    await view.user.keyboard('123456{Enter}');
    const removal = await view.write('DELETE');
    expect(removal).toMatchObject({ url: '/account', body: { code: '123456' } });
    removal.respond(400, { status: 400, code: 'INVALID_CODE', detail: 'The code is not correct.' });
    await waitFor(() => expect(within(deleteForm()).getByRole('alert')).toHaveTextContent('The code is not correct.'));
  });
});
