/** The separator the header line uses most: Keras CSVLogger's is configurable (`,` by default). */
export function detectDelimiter(headerLine: string): string {
  let best = ",";
  let bestCount = 0;
  for (const d of [",", ";", "\t", "|"]) {
    const count = headerLine.split(d).length - 1;
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}

/**
 * Reads RFC 4180 CSV (quoted cells, doubled quotes, CRLF) in one pass without keeping the rows: `onHeader` gets
 * the trimmed header and returns the function called for each later non-blank row.
 */
export function readCsv(text: string, onHeader: (header: string[]) => (cells: string[]) => void): void {
  const end = text.search(/\r?\n|$/);
  const delimiter = detectDelimiter(text.slice(0, end));
  let onRow: ((cells: string[]) => void) | null = null;
  const emit = (cells: string[]) => {
    if (cells.length === 1 && cells[0]!.trim() === "") return;
    if (onRow) onRow(cells);
    else onRow = onHeader(cells.map((h) => h.trim()));
  };
  if (text.includes('"')) quotedRows(text, delimiter, emit);
  else plainRows(text, delimiter, emit);
}

/**
 * The cells of each line as `line.split(delimiter)` gives them, sliced from the text directly: no line string
 * (splitting a slice of every line was half the cost of reading a metrics CSV).
 */
function plainRows(text: string, delimiter: string, emit: (cells: string[]) => void): void {
  let start = 0;
  while (start < text.length) {
    let stop = text.indexOf("\n", start);
    if (stop < 0) stop = text.length;
    const lineEnd = stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
    const cells: string[] = [];
    for (let from = start; ; ) {
      let to = text.indexOf(delimiter, from);
      if (to < 0 || to > lineEnd) to = lineEnd;
      cells.push(text.slice(from, to));
      if (to === lineEnd) break;
      from = to + 1;
    }
    emit(cells);
    start = stop + 1;
  }
}

function quotedRows(text: string, delimiter: string, emit: (cells: string[]) => void): void {
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endRow = () => {
    row.push(cell);
    emit(row);
    row = [];
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      row.push(cell);
      cell = "";
    } else if (c === "\n") endRow();
    else if (c !== "\r") cell += c;
  }
  if (cell !== "" || row.length > 0) endRow();
}
