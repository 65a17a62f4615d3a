"""Class API A under the module path of the devkit's own filter package: `from antares.devkit.filter import Filter`
(the same class as `antares.devkit.Filter`)."""
from antares_runtime.api import Filter
from antares_runtime.core import FilterError, Halt

__all__ = ['Filter', 'Halt', 'FilterError']
