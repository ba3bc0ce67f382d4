import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { type Startup, startSession } from './auth/session.ts';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('the page has no #root element');
const root = createRoot(container);

function render(startup: Startup | undefined) {
  root.render(
    <StrictMode>
      <App startup={startup} />
    </StrictMode>,
  );
}

render(undefined);
void startSession(window.location, document.cookie).then(render);
