"""Class API B, as real filters import it: `from antares_devkit.models import BaseFilter` (some also
`import antares_devkit as dk`)."""
from antares_devkit.models import BaseFilter, DevKitLocus, FilterError, Halt
from antares_runtime.devkit import get_locus, get_locus_ids, locus_from_dict, run_filter, run_many, search_catalogs

__all__ = ['BaseFilter', 'DevKitLocus', 'Halt', 'FilterError', 'run_filter', 'run_many', 'locus_from_dict',
           'get_locus', 'get_locus_ids', 'search_catalogs']
