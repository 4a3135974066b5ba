/** The findings page at /__proxy/ui: one HTML shell and one script that reads /__proxy/findings every two seconds. */

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>game-service proxy: findings</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 1.5rem; color: #1b1b1b; }
h1 { font-size: 1.3rem; }
table { border-collapse: collapse; margin-bottom: 1.5rem; }
th, td { text-align: left; padding: 0.25rem 0.75rem; border-bottom: 1px solid #ddd; vertical-align: top; }
.side-client { color: #8a4b00; }
.side-server { color: #a40000; }
details { margin: 0.5rem 0; border-left: 3px solid #ccc; padding-left: 0.75rem; }
summary { cursor: pointer; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f6f6; padding: 0.5rem; }
.sentence { font-style: italic; color: #444; }
</style>
</head>
<body>
<h1>Findings of game-service proxy</h1>
<p id="summary">Loading…</p>
<table id="rules"><thead><tr><th>Rule</th><th>Side</th><th>Count</th><th>The spec says</th></tr></thead><tbody></tbody></table>
<div id="findings"></div>
<script src="/__proxy/ui/page.js"></script>
</body>
</html>
`;

export const PAGE_SCRIPT = `'use strict';
function cell(row, text, className) {
  const td = document.createElement('td');
  td.textContent = String(text);
  if (className) td.className = className;
  row.append(td);
}
function render(data) {
  document.getElementById('summary').textContent = data.exchanges + ' exchanges, ' + data.findings + ' findings' +
    (data.findings > data.kept.length ? ' (the first ' + data.kept.length + ' shown whole)' : '') +
    (data.waiting > 0 ? '; ' + data.waiting + ' waiting to be judged' : '') +
    data.unjudged.map((each) => '; ' + each.count + ' unjudged: ' + each.reason).join('');
  const body = document.querySelector('#rules tbody');
  body.replaceChildren();
  for (const each of data.byRule) {
    const row = document.createElement('tr');
    cell(row, each.rule);
    cell(row, each.side, 'side-' + each.side);
    cell(row, each.count);
    cell(row, each.sentence, 'sentence');
    body.append(row);
  }
  const list = document.getElementById('findings');
  const open = new Set([...list.querySelectorAll('details[open]')].map((node) => node.dataset.index));
  list.replaceChildren();
  data.kept.forEach((finding, index) => {
    const details = document.createElement('details');
    details.dataset.index = String(index);
    details.open = open.has(String(index));
    const summary = document.createElement('summary');
    summary.textContent = finding.at + '  ' + finding.side + '  ' + finding.rule + ': ' + finding.message + ' (' + finding.request + ' → ' + finding.status + ')';
    summary.className = 'side-' + finding.side;
    const sentence = document.createElement('p');
    sentence.className = 'sentence';
    sentence.textContent = '«' + finding.sentence + '»';
    const exchange = document.createElement('pre');
    exchange.textContent = finding.exchange;
    details.append(summary, sentence, exchange);
    list.append(details);
  });
}
async function refresh() {
  try {
    const answer = await fetch('/__proxy/findings');
    render(await answer.json());
  } catch (error) {
    document.getElementById('summary').textContent = 'The proxy did not answer: ' + error;
  }
}
refresh();
setInterval(refresh, 2000);
`;
