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

/** What each row showed when it was made, before anything the user did to it. */
const rowContent = new WeakMap<Element, string>();

/**
 * Replaces a table body's rows, or says that there is nothing to show. A row that shows what it showed before is
 * kept as it is, with what the user did to it: a refresh every two seconds would otherwise take a "Copied" away
 * at once, or the button under the pointer.
 */
export function fillRows(body: HTMLElement, rows: HTMLElement[], empty: string): void {
  const columns = body.parentElement?.querySelectorAll('th').length ?? 1;
  const before = new Map([...body.children].map((each) => [rowContent.get(each), each]));
  const shown = rows.map((fresh) => {
    const content = fresh.outerHTML;
    const kept = before.get(content);
    if (kept !== undefined) {
      // Taken once: a second row showing the same is a row of its own.
      before.delete(content);
      return kept;
    }
    rowContent.set(fresh, content);
    return fresh;
  });
  body.replaceChildren(...(shown.length > 0 ? shown : [h('tr', {}, h('td', { class: 'empty', colspan: String(columns) }, empty))]));
}

/** A table row of cells; a string cell is plain text, a cell element is kept as it is. */
export function row(attributes: Record<string, string>, ...cells: (Child | HTMLTableCellElement)[]): HTMLElement {
  return h('tr', attributes, ...cells.map((cell) => (cell instanceof HTMLTableCellElement ? cell : h('td', {}, cell))));
}

/**
 * A button that copies `text`, and says so; where the clipboard is refused, the text is selected instead.
 * A compact one is an icon (its label said on hover and to screen readers), for a narrow column.
 */
export function copyButton(text: string, label: string, compact = false): HTMLElement {
  const button = h(
    'button',
    { type: 'button', class: compact ? 'copy compact' : 'copy', title: `copy ${label}`, 'aria-label': `copy ${label}` },
    compact ? '' : 'Copy',
  );
  const say = (full: string, short: string) => {
    button.textContent = compact ? short : full;
    button.classList.add('done');
  };
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      say('Copied', '✓');
    } catch {
      const cell = button.parentElement;
      if (cell !== null) getSelection()?.selectAllChildren(cell.firstChild ?? cell);
      say('Selected: press Ctrl+C', 'Ctrl+C');
    }
  });
  return button;
}

/**
 * A cell for a value that may be long (a conformance run's addresses are): cut to its column with an ellipsis,
 * the whole value on hover, and a button that copies it.
 */
export function longValueCell(value: string, label: string): HTMLTableCellElement {
  const line = h('div', { class: 'cell-line' }, h('span', { class: 'truncate', title: value }, value), copyButton(value, label, true));
  return h('td', { class: 'long' }, line) as HTMLTableCellElement;
}

/** `2030-01-01 12:34:56` of an ISO time, in UTC like the mock's clock. */
export function dateAndTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
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
