"""Class API A, as real filters import it: `import antares.devkit as dk; class F(dk.Filter)`."""
from antares_runtime.api import Filter
from antares_runtime.core import FilterError, Halt
from antares_runtime.devkit import (get_alert, get_locus, get_locus_ids, init, locus_from_dict, run_filter,
                                    run_many, search_catalogs)
from antares_runtime.locus import Alert, LocusA as Locus

__all__ = ['Filter', 'Halt', 'FilterError', 'Locus', 'Alert', 'init', 'run_filter', 'run_many',
           'locus_from_dict', 'get_locus', 'get_locus_ids', 'search_catalogs', 'get_alert']
