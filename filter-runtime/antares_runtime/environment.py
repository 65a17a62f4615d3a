"""What a filter can import inside the sandbox (the web app's Filters page and FAQ show it, `python3 -m
antares_runtime.environment --json` prints it), and the load error naming a module that is missing.

Two parts. The promised packages (PROVIDED_PACKAGES) come from Debian and are shown first, with the
Debian package that provides them: the core five are required for the sandbox to run at all (apps/
pipeline's prerequisite probe); the others are optional on a machine, and a filter importing one that
is not installed gets a message naming the Debian package. And every other top-level module the
configured interpreter can import (ANTARES_FILTER_PYTHON, e.g. a virtual environment made with
--system-site-packages into which the operator pip-installed what authors asked for): nothing is
refused at import, so the listing (installed_modules) is what a filter really gets. The standard
library is not listed (it is all there).
"""
import importlib
import importlib.abc
import importlib.util
import json
import os
import pkgutil
import sys
import sysconfig

# (import name, what authors call it, Debian package, note). Order: as shown to authors.
PROVIDED_PACKAGES = (
    ('numpy', 'numpy', 'python3-numpy', ''),
    ('scipy', 'scipy', 'python3-scipy', ''),
    ('pandas', 'pandas', 'python3-pandas', ''),
    ('astropy', 'astropy', 'python3-astropy', ''),
    ('statsmodels', 'statsmodels', 'python3-statsmodels', ''),
    ('sklearn', 'scikit-learn', 'python3-sklearn', ''),
    ('matplotlib', 'matplotlib', 'python3-matplotlib', 'headless: the Agg backend'),
    ('torch', 'PyTorch', 'python3-torch', 'CPU only'),
    ('yaml', 'PyYAML', 'python3-yaml', ''),
    ('requests', 'requests', 'python3-requests', 'importable; the sandbox has no network'),
    ('sncosmo', 'sncosmo', 'python3-sncosmo', 'built-in models only: it cannot download'),
    ('extinction', 'extinction', 'python3-extinction', ''),
    ('iminuit', 'iminuit', 'python3-iminuit', ''),
    ('emcee', 'emcee', 'python3-emcee', ''),
    ('healpy', 'healpy', 'python3-healpy', ''),
    ('skimage', 'scikit-image', 'python3-skimage', ''),
    ('xgboost', 'xgboost', 'python3-xgboost', ''),
)
# The sandbox does not start without these (apps/pipeline/src/filters/sandbox-pool.ts probes them).
REQUIRED_PACKAGES = ('numpy', 'scipy', 'pandas', 'astropy', 'statsmodels')
# The devkit module paths published filters import, all served by this runtime.
DEVKIT_MODULES = ('antares.devkit', 'antares.devkit.filter', 'antares.dev_kit', 'antares_devkit', 'antares_devkit.models',
                  'antares_devkit.utils', 'devkit2_poc', 'devkit2_poc.models')

_BY_IMPORT = {entry[0]: entry for entry in PROVIDED_PACKAGES}
# Top-level names of the runtime itself (on sys.path inside the sandbox): listed as devkit_modules.
RUNTIME_MODULES = ('antares', 'antares_devkit', 'devkit2_poc', 'antares_runtime')
# The operator's own additions named in a missing-module message, at most (the page lists them all).
MESSAGE_MODULES = 40


def available_summary():
    """'numpy, scipy, ..., scikit-learn (import sklearn), ...' for messages."""
    return ', '.join(name if name == module else f'{name} (import {module})'
                     for module, name, _, _ in PROVIDED_PACKAGES)


def missing_module_message(exc):
    """The load error for a ModuleNotFoundError raised by a filter's own imports, or None when the
    missing module is not a top-level package (a typo inside a package we provide keeps its own error)."""
    name = getattr(exc, 'name', None)
    if not name:
        return None
    top = name.split('.')[0]
    if top in _BY_IMPORT:
        if top != name:
            return None  # e.g. `import sklearn.nonexistent`: Python's own message says it best
        _, shown, debian, _ = _BY_IMPORT[top]
        return (f"this filter imports '{top}' ({shown}), which the ANTARES filter environment provides, but it "
                f'is not installed on this server: apt-get install -y {debian}')
    if top in sys.stdlib_module_names or top in RUNTIME_MODULES:
        return None
    added = [m['import'] for m in installed_modules() if m['location'] == 'environment']
    more = (f', the packages installed for filters on this server ({", ".join(added[:MESSAGE_MODULES])}'
            + (f' and {len(added) - MESSAGE_MODULES} more' if len(added) > MESSAGE_MODULES else '') + ')') if added else ''
    return (f"this filter imports '{top}', which the ANTARES filter environment does not provide; "
            f'available: {available_summary()}{more}, the Python {sys.version_info.major}.{sys.version_info.minor} '
            'standard library and the devkit modules (' + ', '.join(DEVKIT_MODULES) + '); the filter environment '
            'page (GET /v1/filter_environment) lists every module with its version')


def _stdlib_folders():
    paths = sysconfig.get_paths()
    folders = {os.path.realpath(paths[key]) for key in ('stdlib', 'platstdlib')}
    return folders | {os.path.join(f, 'lib-dynload') for f in folders}


def _version(dists, module):
    """The public version from the package metadata (Debian's local part, '0.13.5+dfsg', left out, so it
    equals the public part of __version__), and the distribution's own name; never imports the module."""
    import importlib.metadata as md
    for dist in dists.get(module, ()):
        try:
            meta = md.metadata(dist)
            return (meta['Version'] or '').split('+')[0] or None, meta['Name'] or dist
        except md.PackageNotFoundError:
            pass
    return None, None


def installed_modules():
    """Every top-level module this interpreter can import, the standard library and the runtime's own left
    out: what its path holds (pkgutil, first match wins as for import) plus the namespace packages the
    metadata names (pkgutil skips folders without __init__). Each with its version and distribution name
    from the metadata and where it lies: 'environment' (the virtual environment's own site-packages) or
    'system' (Debian's). Reads no module's code: ~0.15 s with Debian's scientific stack (126 modules)."""
    import importlib.metadata as md
    stdlib = _stdlib_folders()
    venv = os.path.realpath(sys.prefix) if sys.prefix != sys.base_prefix else None
    found = {}
    for info in pkgutil.iter_modules():
        folder = os.path.realpath(getattr(info.module_finder, 'path', '') or '')
        if info.name not in found:
            found[info.name] = folder
    dists = md.packages_distributions()
    for name in dists:
        if name not in found and name.isidentifier():
            spec = importlib.util.find_spec(name)  # a top-level name: locates it, runs nothing
            locations = list(spec.submodule_search_locations or []) if spec else []
            if spec and (spec.origin or locations):
                found[name] = os.path.realpath(os.path.dirname(spec.origin) if spec.origin else locations[0])
    modules = []
    for name, folder in found.items():
        if (name.startswith('_') or name in sys.stdlib_module_names or name in RUNTIME_MODULES or folder in stdlib
                or not name.isidentifier()):
            continue
        version, dist = _version(dists, name)
        in_venv = venv is not None and os.path.commonpath([folder, venv]) == venv
        modules.append({'import': name, 'name': dist or name, 'version': version,
                        'location': 'environment' if in_venv else 'system'})
    return sorted(modules, key=lambda m: m['import'].lower())


def describe():
    """The promised environment as data (for the docs)."""
    return {
        'python': f'{sys.version_info.major}.{sys.version_info.minor}',
        'packages': [{'import': module, 'name': name, 'debian': debian, 'note': note,
                      'required': module in REQUIRED_PACKAGES} for module, name, debian, note in PROVIDED_PACKAGES],
        'devkit_modules': list(DEVKIT_MODULES),
    }


def probe():
    """What this interpreter offers filters (GET /v1/filter_environment, `antares filters env`): the promised
    packages first, in their order (version null when not installed), then every other importable module."""
    installed = {m['import']: m for m in installed_modules()}
    packages = []
    for module, name, debian, note in PROVIDED_PACKAGES:
        found = installed.pop(module, None)
        packages.append({'import': module, 'name': name, 'debian': debian, 'note': note, 'promised': True,
                         'required': module in REQUIRED_PACKAGES, 'version': found and found['version'],
                         'location': found and found['location']})
    packages += [dict(m, debian='', note='', promised=False, required=False) for m in installed.values()]
    return {
        'python': '.'.join(str(n) for n in sys.version_info[:3]),
        'sandboxed': os.environ.get('ANTARES_SANDBOX') == '1',
        'virtual_environment': sys.prefix != sys.base_prefix,
        'packages': packages,
        'devkit_modules': list(DEVKIT_MODULES),
    }


def main(argv):
    if '--probe' in argv:
        print(json.dumps(probe()), flush=True)
    elif '--json' in argv:
        print(json.dumps(describe(), indent=2))
    else:
        for module, name, debian, note in PROVIDED_PACKAGES:
            print(f'{name:14} import {module:12} {debian:22} {note}')


if __name__ == '__main__':
    main(sys.argv[1:])


class _AstropyTableWithAstropy(importlib.abc.MetaPathFinder):
    """Loads astropy.table right after astropy. In the devkits filters were written for, importing the devkit
    had already loaded it (their locus is an astropy TimeSeries), so published filters write
    `import astropy` and then use `astropy.table.TableReplaceWarning`. Ours builds tables lazily, so the
    0.4 s import happens only for filters that import astropy themselves."""

    def find_spec(self, name, path=None, target=None):
        if name != 'astropy':
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec('astropy')
        if spec is None or spec.loader is None or not hasattr(spec.loader, 'exec_module'):
            return spec
        run_package = spec.loader.exec_module

        def exec_module(module):
            run_package(module)
            importlib.import_module('astropy.table')
        spec.loader.exec_module = exec_module
        return spec


def load_astropy_table_with_astropy():
    """Makes `import astropy` give a module whose `table` attribute exists, as in the real devkits."""
    if 'astropy' in sys.modules:
        importlib.import_module('astropy.table')
    elif not any(isinstance(f, _AstropyTableWithAstropy) for f in sys.meta_path):
        sys.meta_path.insert(0, _AstropyTableWithAstropy())
