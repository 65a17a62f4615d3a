/** Route handle: `title` is the page title before ' | ANTARES' (a function of loader data when dynamic). */
export interface RouteHandle {
  name: string;
  title?: string | ((data: unknown) => string | undefined);
}
