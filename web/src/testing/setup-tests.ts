import '@testing-library/jest-dom/jest-globals';
import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks them; react-router encodes URLs with them as browsers do.
Object.assign(globalThis, { TextEncoder, TextDecoder });
