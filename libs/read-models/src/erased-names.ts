import { pseudonymOf } from '#application';
import { erasedPersonName, organizationStream, personSubject } from '#domain';

/** What an erased member reads as in an organization's history: the words the store gives their sealed values there. */
export const erasedMemberName = (organizationId: string, userId: string): string =>
  erasedPersonName(pseudonymOf(organizationStream(organizationId), personSubject(userId)));
