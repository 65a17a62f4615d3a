"""`devkit2_poc.utils.filter_report`, as in antares_devkit.utils."""
from antares_devkit.utils import filter_report  # noqa: F401

__all__ = ['filter_report']
