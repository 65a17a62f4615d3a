"""`filter_report(filters, locus)`: the API B devkit's way to try filters on one locus."""
from antares_runtime.devkit import run_filter


def filter_report(filters, locus, verbose=False):
    """Run each filter (class or instance) on the locus; one report per filter, keyed by class name."""
    if not isinstance(filters, (list, tuple)):
        filters = [filters]
    reports = {}
    for f in filters:
        name = f.__name__ if isinstance(f, type) else type(f).__name__
        reports[name] = run_filter(f, locus, verbose=verbose)
    return reports
