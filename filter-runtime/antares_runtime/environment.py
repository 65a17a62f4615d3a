"""What a filter may import inside the sandbox: the one list of it (the web app's Filters page and FAQ
show it, `python3 -m antares_runtime.environment --json` prints it), and the load error naming a
package we do not provide.

Every package comes from Debian (no pip inside the sandbox, no network to fetch one). The core five
are required for the sandbox to run at all (apps/pipeline's prerequisite probe); the others are
optional on a machine: a filter importing one that is not installed gets the message below, naming
the Debian package, instead of a bare ModuleNotFoundError.
"""
import importlib
import importlib.abc
import importlib.util
import json
import sys

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
    if top in sys.stdlib_module_names or top in ('antares', 'antares_devkit', 'devkit2_poc', 'antares_runtime'):
        return None
    return (f"this filter imports '{top}', which the ANTARES filter environment does not provide; "
            f'available: {available_summary()}, the Python {sys.version_info.major}.{sys.version_info.minor} '
            'standard library and the devkit modules (' + ', '.join(DEVKIT_MODULES) + ')')


def describe():
    """The environment as data (for the web app and the docs)."""
    return {
        'python': f'{sys.version_info.major}.{sys.version_info.minor}',
        'packages': [{'import': module, 'name': name, 'debian': debian, 'note': note,
                      'required': module in REQUIRED_PACKAGES} for module, name, debian, note in PROVIDED_PACKAGES],
        'devkit_modules': list(DEVKIT_MODULES),
    }


if __name__ == '__main__':
    if '--json' in sys.argv[1:]:
        print(json.dumps(describe(), indent=2))
    else:
        for module, name, debian, note in PROVIDED_PACKAGES:
            print(f'{name:14} import {module:12} {debian:22} {note}')


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
