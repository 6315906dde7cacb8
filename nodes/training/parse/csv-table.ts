/** A CSV file as header + rows of cells (quotes removed). */
export interface CsvTable {
  header: string[];
  rows: string[][];
}

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

/** Reads RFC 4180 CSV (quoted cells, doubled quotes, CRLF); blank lines are skipped. */
export function parseCsv(text: string): CsvTable {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = detectDelimiter(firstLine);
  const rows = text.includes('"') ? quotedRows(text, delimiter) : plainRows(text, delimiter);
  const header = (rows.shift() ?? []).map((h) => h.trim());
  return { header, rows };
}

function plainRows(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.split("\n")) {
    const l = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (l.trim() !== "") rows.push(l.split(delimiter));
  }
  return rows;
}

function quotedRows(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endRow = () => {
    row.push(cell);
    if (row.length > 1 || row[0]!.trim() !== "") rows.push(row);
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
  return rows;
}
