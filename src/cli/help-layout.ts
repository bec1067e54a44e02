// The column layout of `--help` pages: the layout yargs printed through cliui 9 and wrap-ansi 9
// (node_modules/cliui/build/lib/index.js, node_modules/wrap-ansi/index.js), for plain text
// (the option rows: no escape codes, one column per code point). Not cliui itself: its
// string-width builds an Intl.Segmenter when loaded, which cost every CLI start a double-digit
// share of its time (bench/README.md "Figures behind the code's comments"). test/cli/help-pages.test.ts
// holds the pages cliui rendered, character for character.

/** One column of a row: its text, its width (padding included; else the rest of the page), padding [top, right, bottom, left], right alignment. */
export interface HelpColumn {
  text: string;
  width?: number;
  padding?: readonly [number, number, number, number];
  alignRight?: boolean;
}

/** Display width of plain text: one column per code point. */
const widthOf = (text: string): number => [...text].length;

/**
 * Wraps one line of text to `columns`, breaking between words and, for a word longer than a line,
 * inside it (wrap-ansi's `hard` mode with `trim`); `\n` starts a new line.
 */
export function wrapText(text: string, columns: number): string[] {
  return text.normalize().replaceAll('\r\n', '\n').split('\n').flatMap((line) => wrapLine(line, columns));
}

function wrapLine(line: string, columns: number): string[] {
  if (line.trim() === '') return [''];
  const rows = [''];
  for (const [index, word] of line.split(' ').entries()) {
    rows[rows.length - 1] = (rows.at(-1) ?? '').trimStart();
    let rowLength = widthOf(rows.at(-1) ?? '');
    if (index !== 0 && rowLength > 0) {
      rows[rows.length - 1] += ' ';
      rowLength += 1;
    }
    const length = widthOf(word);
    if (length > columns) {
      const breaksThisLine = 1 + Math.floor((length - (columns - rowLength) - 1) / columns);
      if (Math.floor((length - 1) / columns) < breaksThisLine) rows.push('');
      breakWord(rows, word, columns);
      continue;
    }
    if (rowLength + length > columns && rowLength > 0 && length > 0) rows.push('');
    rows[rows.length - 1] += word;
  }
  return rows.map((row) => row.replace(/ +$/, ''));
}

/** A word longer than a line, cut into lines of `columns` code points (the first fills the current line). */
function breakWord(rows: string[], word: string, columns: number): void {
  const characters = [...word];
  let visible = widthOf(rows.at(-1) ?? '');
  for (const [index, character] of characters.entries()) {
    if (visible + 1 <= columns) rows[rows.length - 1] += character;
    else {
      rows.push(character);
      visible = 0;
    }
    visible += 1;
    if (visible === columns && index < characters.length - 1) {
      rows.push('');
      visible = 0;
    }
  }
  if (!visible && (rows.at(-1) ?? '').length > 0 && rows.length > 1) rows[rows.length - 2] += rows.pop() ?? '';
}

/** The lines of a page, built row by row; `span` rows let the next row continue on their last line. */
export class HelpLayout {
  private readonly lines: { text: string; span: boolean; hidden: boolean }[] = [];

  constructor(private readonly width: number) {}

  /** A row of columns, each wrapped to its width. */
  div(...columns: HelpColumn[]): void {
    this.row(columns.length > 0 ? columns : [{ text: '' }], false);
  }

  /** A row whose last line the next row may continue (a right-aligned type after a flag's text). */
  span(...columns: HelpColumn[]): void {
    this.row(columns, true);
  }

  toString(): string {
    return this.lines.filter((line) => !line.hidden).map((line) => line.text).join('\n');
  }

  private row(columns: readonly HelpColumn[], span: boolean): void {
    const fixed = columns.reduce((sum, c) => sum + (c.width ?? 0), 0);
    const unset = columns.filter((c) => c.width === undefined).length;
    const share = unset > 0 ? Math.floor((this.width - fixed) / unset) : 0;
    const widths = columns.map((c) => c.width ?? Math.max(share, 1 + (c.padding?.[3] ?? 0) + (c.padding?.[1] ?? 0)));
    const wrapped = columns.map((c, i) => {
      const inner = (widths[i] ?? 0) - (c.padding?.[3] ?? 0) - (c.padding?.[1] ?? 0);
      return [...Array<string>(c.padding?.[0] ?? 0).fill(''), ...wrapText(c.text, inner), ...Array<string>(c.padding?.[2] ?? 0).fill('')];
    });
    const height = Math.max(...wrapped.map((w) => w.length));
    for (let r = 0; r < height; r++) {
      let text = '';
      columns.forEach((column, c) => {
        const inner = (widths[c] ?? 0) - (column.padding?.[3] ?? 0) - (column.padding?.[1] ?? 0);
        let cell = wrapped[c]?.[r] ?? '';
        if (inner > widthOf(cell)) cell += ' '.repeat(inner - widthOf(cell));
        if (column.alignRight) {
          const trimmed = cell.trim();
          cell = widthOf(trimmed) < inner ? ' '.repeat(inner - widthOf(trimmed)) + trimmed : trimmed;
          if (widthOf(cell) < inner) cell += ' '.repeat((widths[c] ?? 0) - widthOf(cell) - 1);
        }
        text += ' '.repeat(column.padding?.[3] ?? 0) + cell + ' '.repeat(column.padding?.[1] ?? 0);
        if (r === 0) text = this.continueSpan(text);
      });
      this.lines.push({ text: text.replace(/ +$/, ''), span, hidden: false });
    }
  }

  /** Puts `source` on the previous line when that line is a span's and `source`'s leading spaces clear its text (cliui's renderInline). */
  private continueSpan(source: string): string {
    const previous = this.lines.at(-1);
    if (!previous?.span) return source;
    const leading = /^ */.exec(source)?.[0].length ?? 0;
    const target = previous.text.trimEnd();
    if (leading < widthOf(target)) return source;
    previous.hidden = true;
    return target + ' '.repeat(leading - widthOf(target)) + source.trimStart();
  }
}
