// Small DOM helpers: every text goes in as textContent, never as HTML.

/** `h('div.card', {id: 'x'}, child, 'text')`: an element with class(es), attributes and children. */
export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split('.');
  const el = document.createElement(name || 'div');
  if (classes.length > 0) el.className = classes.join(' ');
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/** Replaces `el`'s children; null, undefined and false are left out (never shown as text). */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** A message line: `kind` is ok, error or info. */
export function message(kind, text) {
  return h(`p.msg.${kind}`, { role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** Amount in EUR with two decimals and a comma, as shops write it. */
export function eur(value) {
  const n = Number(value);
  return `${n.toFixed(2).replace('.', ',')} €`;
}

/** A label above its field. */
export function field(label, input, note) {
  const id = input.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  input.id = id;
  return h('div.field', {}, h('label', { for: id }, label), input, note ? h('small.note', {}, note) : null);
}

/** A table whose rows become labelled blocks on a narrow screen (CSS reads data-label). */
export function table(headers, rows, className = '') {
  return h(
    `table.list${className ? `.${className}` : ''}`,
    {},
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headers.map((x) => h('th', {}, x)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((row) =>
        h(
          'tr',
          row.attrs ?? {},
          (row.cells ?? row).map((cell, i) => h('td', { 'data-label': headers[i] }, cell)),
        ),
      ),
    ),
  );
}

/** Today as YYYY-MM-DD in Europe/Bratislava (the register's fiscal day). */
export function today() {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Bratislava' }).format(new Date());
}

/** Reads a picked file as text or as a data: URL. */
export function readFile(file, as = 'text') {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    if (as === 'dataUrl') reader.readAsDataURL(file);
    else reader.readAsText(file, 'utf-8');
  });
}
