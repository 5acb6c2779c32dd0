import { useOutletContext } from 'react-router';
import type { Membership, Organization, SessionAnswer } from '../../api/contract';
import { selectProductName } from '../../config/page-config-slice';
import { documentTitle, useDocumentTitle } from '../../lib/document-title';
import { useAppSelector } from '../../lib/store-hooks';

export type OrganizationPageContext = { session: SessionAnswer; membership: Membership; organization: Organization };

export const useOrganizationPage = () => useOutletContext<OrganizationPageContext>();

/** `<Page> · <Organization> · <Product>` (docs/console.md, Every page). */
export function useConsoleTitle(page: string, organizationName: string | undefined): void {
  useDocumentTitle(documentTitle(page, organizationName, useAppSelector(selectProductName)));
}
