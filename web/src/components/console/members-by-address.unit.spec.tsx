import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useMembersByAddress } from './members-by-address';

const people = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ email: `person-${index + 1}@acme.example` }));

function People({ members }: { members: { email: string }[] }) {
  const { shown, field, summary } = useMembersByAddress(members, 'Find a member');
  return (
    <>
      {field}
      <ul aria-label="Members">
        {shown.map((member) => (
          <li key={member.email}>{member.email}</li>
        ))}
      </ul>
      {summary}
    </>
  );
}

describe('useMembersByAddress', () => {
  it('stops filtering once the list is short enough to lose its field, so no row stays hidden by it', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<People members={people(11)} />);
    await user.type(screen.getByRole('searchbox', { name: 'Find a member' }), 'person-1@');
    expect(screen.getAllByRole('listitem').map((row) => row.textContent)).toEqual(['person-1@acme.example']);
    // One removed: ten left, no field, and all ten shown.
    rerender(<People members={people(10)} />);
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(10);
  });
});
