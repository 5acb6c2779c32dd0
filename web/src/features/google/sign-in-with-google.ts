import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { selectGoogleSignInToken, type PageConfig } from '../../config/page-config-slice';
import { paths } from '../../config/paths';
import type { Services } from '../../lib/services';

/** Seed, section 4: a full-page navigation to /auth/go/ and the page's token, not a background call. */
export const signInWithGoogle =
  (redirect: string | null): ThunkAction<void, { pageConfig: PageConfig }, Services, UnknownAction> =>
  (_dispatch, getState, { navigate }) =>
    navigate(paths.googleSignIn.getHref(selectGoogleSignInToken(getState()), redirect));
