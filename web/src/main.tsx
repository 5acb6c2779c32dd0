import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { makeStore } from './app/store';
import { readPageConfig } from './config/page-config-slice';
import { installErrorReporting } from './lib/error-reporting';
import './index.css';

const pageConfig = readPageConfig(document);
document.title = pageConfig.productName;
installErrorReporting(window, pageConfig);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App store={makeStore({ pageConfig })} />
  </StrictMode>,
);
