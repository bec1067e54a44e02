// cliui 9 ships JavaScript only: the part of its API render-help.ts uses
// (node_modules/cliui/build/lib/index.js: UI#div, UI#span, UI#toString).
declare module 'cliui' {
  /** One column of a row: its text, width in columns (else an equal share), padding [top, right, bottom, left], alignment. */
  interface Column {
    text: string;
    width?: number;
    padding?: [number, number, number, number];
    align?: 'right' | 'center';
  }
  export interface UI {
    /** A row of columns, each wrapped to its width. */
    div(...columns: (Column | string)[]): void;
    /** A row the next row continues on the same lines. */
    span(...columns: (Column | string)[]): void;
    toString(): string;
  }
  export default function cliui(options: { width: number; wrap?: boolean }): UI;
}
