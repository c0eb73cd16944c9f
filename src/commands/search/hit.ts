/** One hit of search text in a file, as the byte and the text matchers both return it. */
export interface ContextLine {
  line: number;
  text: string;
}

export interface Hit {
  line: number;
  /** 1-based column in characters (code points). */
  column: number;
  text: string;
  before: ContextLine[];
  after: ContextLine[];
}
