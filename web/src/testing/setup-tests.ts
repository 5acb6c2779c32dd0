import '@testing-library/jest-dom/jest-globals';
import { configure } from '@testing-library/react';
import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks them; react-router encodes URLs with them as browsers do.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// The console's pages are lazily loaded chunks: the first one a test file opens is compiled on demand, which took
// over 5 s on a loaded 2-core machine (a members page still "Loading").
configure({ asyncUtilTimeout: 10_000 });

// jsdom does not lay out pages, so it does not scroll them either; the console scrolls to a new page's top.
window.scrollTo = () => {};
