/**
 * What a filter may import in the sandbox, as `GET /v1/filter_environment` serves it: the list is the
 * filter runtime's own (filter-runtime/antares_runtime/environment.py) and the versions are read from the
 * packages installed on the server (Debian's), so the Filters page and the FAQ show what filters get.
 */
export interface FilterEnvironmentPackage {
  /** What authors call it: 'scikit-learn'. */
  name: string;
  /** What a filter imports: 'sklearn'. */
  import: string;
  /** The installed version (without Debian's local suffix such as '+dfsg'); null when not installed here. */
  version: string | null;
  /** The Debian package that provides it. */
  debian: string;
  /** A limit worth knowing ('CPU only', 'the sandbox has no network'), or ''. */
  note: string;
}

export interface FilterEnvironment {
  /** The sandbox's Python version, e.g. '3.11.2'. */
  python: string;
  packages: FilterEnvironmentPackage[];
  /** The devkit module paths filters may import: 'antares.devkit', 'antares_devkit.models', ... */
  devkit_modules: string[];
}
