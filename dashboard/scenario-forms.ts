import { control } from './control-client.js';
import { byId, h } from './dom.js';

/** Placeholders that show the kind of value a parameter takes. */
const EXAMPLES: Readonly<Record<string, string>> = {
  category: 'auth',
  key: '127.0.0.1',
  email: 'pilot@example.com',
  player: 'pilot@example.com',
  token: 'bearer token',
  path: '/api/* (optional)',
};

/** One button per scenario the mock lists, with a field per parameter; empty fields are left out. */
export async function showScenarios(apply: (name: string, parameters: Record<string, string>) => Promise<void>): Promise<void> {
  const { scenarios } = await control('scenarios');
  const forms = scenarios.map((scenario) => {
    const inputs = scenario.parameters.map(
      (name) => h('input', { name, 'aria-label': `${scenario.name} ${name}`, placeholder: EXAMPLES[name] ?? name }) as HTMLInputElement,
    );
    const button = h('button', { title: scenario.summary }, scenario.name);
    const form = h('form', { class: 'scenario', 'data-scenario': scenario.name }, button, ...inputs);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const parameters = Object.fromEntries(inputs.filter((input) => input.value.trim() !== '').map((input) => [input.name, input.value.trim()]));
      void apply(scenario.name, parameters);
    });
    return form;
  });
  byId('scenarios').replaceChildren(...forms);
}
