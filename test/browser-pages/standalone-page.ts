import { runScenario } from './scenario.js';

/** The page of a game client calling the standalone mock across origins; the test reads the codes for it. */
document.querySelector('#title')!.textContent = 'Standalone mock, called across origins';
window.runScenario = ({ apiUrl }) => runScenario(apiUrl, (email) => window.readOtpFromTest(email));
