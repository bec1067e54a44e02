/** Report formats of check, record and proxy (a module of its own: the CLI's option tables read it without loading the formatters). */
export const REPORT_FORMATS = ['text', 'json', 'junit', 'html', 'markdown', 'sarif'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
