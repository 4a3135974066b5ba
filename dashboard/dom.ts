type Child = Node | string;

/** An element with attributes and children; text is always set as text, never parsed as HTML. */
export function h(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

/** Replaces a table body's rows, or says that there is nothing to show. */
export function fillRows(body: HTMLElement, rows: HTMLElement[], empty: string): void {
  const columns = body.parentElement?.querySelectorAll('th').length ?? 1;
  body.replaceChildren(...(rows.length > 0 ? rows : [h('tr', {}, h('td', { class: 'empty', colspan: String(columns) }, empty))]));
}

/** A table row of cells; a string cell is plain text, a cell element is kept as it is. */
export function row(attributes: Record<string, string>, ...cells: (Child | HTMLTableCellElement)[]): HTMLElement {
  return h('tr', attributes, ...cells.map((cell) => (cell instanceof HTMLTableCellElement ? cell : h('td', {}, cell))));
}

/** A button that copies `text`, and says so; where the clipboard is refused, the text is selected instead. */
export function copyButton(text: string, label: string): HTMLElement {
  const button = h('button', { type: 'button', class: 'copy', title: `copy ${label}` }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      const cell = button.parentElement;
      if (cell !== null) getSelection()?.selectAllChildren(cell.firstChild ?? cell);
      button.textContent = 'Selected: press Ctrl+C';
    }
  });
  return button;
}

/** `12:34:56` of an ISO time, in UTC like the mock's clock. */
export function timeOfDay(iso: string): string {
  return iso.slice(11, 19);
}

/** A duration as `1:05` (minutes and seconds), or with hours and days when longer. */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const [days, hours, minutes] = [Math.floor(seconds / 86_400), Math.floor(seconds / 3600) % 24, Math.floor(seconds / 60) % 60];
  const clock = `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
  if (days > 0) return `${days}d ${hours}h`;
  return hours > 0 ? `${hours}:${clock.padStart(5, '0')}` : clock;
}
