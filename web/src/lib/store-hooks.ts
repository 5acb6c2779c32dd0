import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { Services } from './services';

// The SPA's store hooks, for app/ and the code below it, which cannot name the root state (app/ composes it from the
// features): each thunk and slice selector names the part of the state it reads.
export const useAppDispatch = useDispatch.withTypes<ThunkDispatch<never, Services, UnknownAction>>();
export const useAppSelector = useSelector;
