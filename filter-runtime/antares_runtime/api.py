"""The two filter base classes real authors subclass, and how the runtime instantiates them."""

from .core import Changes, Declarations
from .errors import FilterError
from .event_dict import run_event_dict
from .locus import UncheckedChanges


class Filter:
    """Class API A (`antares.devkit.Filter`): implement `run(self, locus)`, optionally `setup(self)`."""
    _antares_api = 'A'
    INPUT_LOCUS_PROPERTIES = []
    INPUT_ALERT_PROPERTIES = []
    INPUT_TAGS = []
    REQUIRED_LOCUS_PROPERTIES = []
    REQUIRED_ALERT_PROPERTIES = []
    REQUIRED_TAGS = []
    OUTPUT_LOCUS_PROPERTIES = []
    OUTPUT_ALERT_PROPERTIES = []
    OUTPUT_TAGS = []
    REQUIRES_FILES = []
    ERROR_SLACK_CHANNEL = ''
    REQUIRED_GRAV_WAVE_PROB_REGION = None

    def setup(self):
        pass

    def run(self, locus):
        raise NotImplementedError('a filter must implement run(self, locus)')


class BaseFilter:
    """Class API B (`antares_devkit.models.BaseFilter`): implement `_run(self, locus)`."""
    _antares_api = 'B'
    INPUT_LOCUS_PROPERTIES = []
    INPUT_ALERT_PROPERTIES = []
    INPUT_TAGS = []
    REQUIRED_LOCUS_PROPERTIES = []
    REQUIRED_ALERT_PROPERTIES = []
    REQUIRED_TAGS = []
    OUTPUT_LOCUS_PROPERTIES = []
    OUTPUT_ALERT_PROPERTIES = []
    OUTPUT_LOCUS_TAGS = []
    REQUIRES_FILES = []
    SLACK_CHANNEL = ''
    ERROR_SLACK_CHANNEL = ''
    TRIGGERING_SURVEY = None
    REQUIRED_GRAV_WAVE_PROB_REGION = None

    def setup(self):
        pass

    def run(self, locus):
        # Called directly by an author (`HelloWorld().run(devkit_locus)`, as the devkit's README does):
        # the locus records what the filter does, checked against its declarations as in production.
        changes = getattr(locus, '_changes', False)
        if changes is None or isinstance(changes, UncheckedChanges):
            locus._bind(Changes(Declarations(type(self), api_of(type(self)))))
        elif isinstance(changes, Changes) and changes.decl.cls is not type(self):
            # Another filter ran on this locus before (an author's chain): what it wrote stays on the
            # locus, this run records against this filter's declarations.
            locus._changes = Changes(Declarations(type(self), api_of(type(self))))
        decl = locus._changes.decl if isinstance(locus._changes, Changes) else None
        if decl is not None and decl.dict_style:
            decl.note_instance(self)
            return run_event_dict(self, decl, locus)
        return self._run(locus)

    def _run(self, locus):
        raise NotImplementedError('a filter must implement _run(self, locus)')


def api_of(cls):
    if isinstance(cls, type) and getattr(cls, '_antares_api', None) == '2019' and issubclass(cls, Filter):
        return '2019'
    if isinstance(cls, type) and issubclass(cls, BaseFilter):
        return 'B'
    if isinstance(cls, type) and issubclass(cls, Filter):
        return 'A'
    raise FilterError(f'{cls!r} is not a subclass of antares.devkit.Filter or antares_devkit.models.BaseFilter')


def instantiate(cls, files=None, files_pending=False):
    """Declarations checked, REQUIRES_FILES loaded into self.files as bytes, then setup() once.
    files_pending: files still missing are not an error; the declarations come back without an
    instance (None), since setup() may need them (a first version, checked before its files exist)."""
    decl = Declarations(cls, api_of(cls))
    files = files or {}
    missing = [name for name in decl.requires_files if name not in files]
    if missing and files_pending:
        return None, decl
    if missing:
        raise FilterError(f'REQUIRES_FILES not provided: {missing}')
    instance = cls()
    instance.files = {name: bytes(files[name]) for name in decl.requires_files}
    instance.setup()
    decl.note_instance(instance)
    return instance, decl
