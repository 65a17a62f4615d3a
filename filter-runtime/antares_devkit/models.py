"""Class API B models: BaseFilter (implement `_run(self, locus)`) and the DevKitLocus it receives."""
from antares_runtime.api import BaseFilter
from antares_runtime.core import FilterError, Halt
from antares_runtime.locus import Alert as DevKitAlert
from antares_runtime.locus import LocusB


class DevKitLocus(LocusB):
    """API B locus; `DevKitLocus.model_validate(locus_dict)` as in the real (pydantic-based) devkit."""

    @classmethod
    def model_validate(cls, data):
        if isinstance(data, LocusB):
            return data
        return cls(dict(data))


__all__ = ['BaseFilter', 'DevKitLocus', 'DevKitAlert', 'Halt', 'FilterError']
