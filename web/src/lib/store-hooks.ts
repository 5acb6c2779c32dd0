import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { Services } from './services';

// Code below app/ cannot name the root state (app/ composes it): each selector names the part it reads.
export const useAppDispatch = useDispatch.withTypes<ThunkDispatch<never, Services, UnknownAction>>();
export const useAppSelector = useSelector;
