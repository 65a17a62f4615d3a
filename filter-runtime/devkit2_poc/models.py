"""`devkit2_poc.models`: BaseFilter (implement `_run(self, locus)`) and DevKitLocus, as in antares_devkit.models."""
from antares_devkit.models import *  # noqa: F401,F403
from antares_devkit.models import __all__  # noqa: F401
