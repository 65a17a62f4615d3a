"""The devkit 2 proof of concept, the earlier name of class API B (`from devkit2_poc.models import
BaseFilter`): the same API as `antares_devkit`, under the module path its filters import."""
from antares_devkit import *  # noqa: F401,F403
from antares_devkit import __all__  # noqa: F401
