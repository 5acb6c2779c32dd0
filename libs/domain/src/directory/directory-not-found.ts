// What a directory's decider and its service answer for an id the directory does not hold.
import { DomainError } from '../errors.js';

export const scimUserNotFound = (resourceId: string): DomainError =>
  new DomainError('NOT_FOUND', `The directory has no user ${resourceId}.`, { entity: 'scimUser' });

export const scimTokenNotFound = (tokenId: string): DomainError =>
  new DomainError('NOT_FOUND', `This organization has no directory token ${tokenId}.`, { entity: 'scimToken' });

export const scimGroupNotFound = (groupId: string): DomainError =>
  new DomainError('NOT_FOUND', `The directory has no group ${groupId}.`, { entity: 'scimGroup' });
